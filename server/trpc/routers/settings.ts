/**
 * settings.* – the publication's settings (what GET /api/v1/config serves), for owners; and who
 * may call AMP's paywall endpoints (ampCalls).
 */
import { z } from "zod";

import { getPublisherSettings, updatePublisherSettings } from "../../publishing/settings";
import {
  ZPublisherSettingsInput,
  ZPublisherSettingsView,
  ZUpdatePublisherSettingsResult,
} from "../../publishing/settings.schema";
import { getAmpCallSettings, setAmpCallSettings, ZAmpCallSettings } from "../../subscriptions/access/amp-call-settings";
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

  /** Whether AMP's paywall calls may come without X-SUBAUTH (server/subscriptions/access/amp-calls.ts). */
  ampCalls: ownerProcedure
    .input(z.void())
    .output(ZAmpCallSettings)
    .query(({ ctx }) => getAmpCallSettings(ctx.db, { actor: ctx.actor })),

  setAmpCalls: ownerProcedure
    .input(ZAmpCallSettings)
    .output(ZAmpCallSettings)
    .mutation(({ ctx, input }) => setAmpCallSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
