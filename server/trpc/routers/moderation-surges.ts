/**
 * moderationSurges.* – shifts, surges, the queue-age alert and the moderators' figures, for owners
 * and moderators (docs/engagement.md "Shifts and surges", "Moderation figures").
 */
import { z } from "zod";

import { getModerationStats } from "../../engagement/moderation/queue/moderation-stats";
import { ZModerationStats, ZModerationStatsInput } from "../../engagement/moderation/queue/moderation-stats.schema";
import {
  getSurgeSettings,
  setAlertSubscription,
  updateSurgeSettings,
} from "../../engagement/moderation/surges/surge-settings";
import {
  ZListSurgesInput,
  ZSetAlertSubscriptionInput,
  ZSurgeList,
  ZSurgeSettingsView,
  ZUpdateSurgeSettingsInput,
  ZUpdateSurgeSettingsResult,
} from "../../engagement/moderation/surges/surge-settings.schema";
import { listSurges } from "../../engagement/moderation/surges/surges";
import { adminProcedure, createTRPCRouter } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const moderationSurgesRouter = createTRPCRouter({
  /** The shifts, surge rules and alert, and whether the caller receives the alert. */
  settings: moderatorProcedure
    .input(z.void())
    .output(ZSurgeSettingsView)
    .query(({ ctx }) => getSurgeSettings(ctx.db, { actor: ctx.actor })),

  /** Change the fields given (audited); answers which changed. */
  updateSettings: moderatorProcedure
    .input(ZUpdateSurgeSettingsInput)
    .output(ZUpdateSurgeSettingsResult)
    .mutation(({ ctx, input }) => updateSurgeSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** The caller asks for, or stops, the queue-age e-mail (audited). */
  setAlertSubscription: moderatorProcedure
    .input(ZSetAlertSubscriptionInput)
    .output(ZSurgeSettingsView)
    .mutation(({ ctx, input }) => setAlertSubscription(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** The open surges (and recent ended ones), and whether a shift is on. */
  surges: moderatorProcedure
    .input(ZListSurgesInput)
    .output(ZSurgeList)
    .query(({ ctx, input }) => listSurges(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Queue age, time to decision, decisions per moderator per day and per week. */
  stats: moderatorProcedure
    .input(ZModerationStatsInput)
    .output(ZModerationStats)
    .query(({ ctx, input }) => getModerationStats(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
