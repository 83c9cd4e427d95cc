/** settings.* – the publication's settings (what GET /api/v1/config serves), for owners. */
import { z } from "zod";

import { getPublisherSettings, updatePublisherSettings } from "../../publishing/settings";
import {
  ZPublisherSettingsInput,
  ZPublisherSettingsView,
  ZUpdatePublisherSettingsResult,
} from "../../publishing/settings.schema";
import { appUrl, createTRPCRouter, ownerProcedure } from "../trpc";

export const settingsRouter = createTRPCRouter({
  get: ownerProcedure
    .input(z.void())
    .output(ZPublisherSettingsView)
    .query(({ ctx }) => getPublisherSettings(ctx.db, { actor: ctx.actor, appUrl: appUrl() })),

  /** Save the whole page; answers which fields changed (none: nothing was written). */
  update: ownerProcedure
    .input(ZPublisherSettingsInput)
    .output(ZUpdatePublisherSettingsResult)
    .mutation(({ ctx, input }) =>
      updatePublisherSettings(ctx.db, { actor: ctx.actor, input, appUrl: appUrl(), now: new Date() }),
    ),
});
