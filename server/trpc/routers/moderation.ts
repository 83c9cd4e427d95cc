/** moderation.* – comment moderation settings (owners and moderators). The queue is a later part. */
import { z } from "zod";

import { getModerationSettings, updateModerationSettings } from "../../engagement/moderation/settings";
import {
  ZModerationSettingsView,
  ZUpdateModerationSettingsInput,
  ZUpdateModerationSettingsResult,
} from "../../engagement/moderation/settings.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const moderationRouter = createTRPCRouter({
  settings: moderatorProcedure
    .input(z.void())
    .output(ZModerationSettingsView)
    .query(({ ctx }) => getModerationSettings(ctx.db, { actor: ctx.actor })),

  /** Change the fields given; answers which changed (none: nothing was written). */
  updateSettings: moderatorProcedure
    .input(ZUpdateModerationSettingsInput)
    .output(ZUpdateModerationSettingsResult)
    .mutation(({ ctx, input }) => updateModerationSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
