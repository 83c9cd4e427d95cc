/**
 * scoring.* – how comments are scored: the adaptive layer and the external scorer, a shadow
 * configuration and its agreement with the moderators (docs/engagement.md "Scoring"). Owners and
 * moderators read it, change the live layers and set a shadow; owners promote or discard it.
 */
import { z } from "zod";

import {
  discardShadowScoring,
  promoteShadowScoring,
  setShadowScoring,
  updateLiveScoring,
} from "../../engagement/moderation/scorer/scoring-settings";
import {
  ZScoringOverview,
  ZSetShadowInput,
  ZUpdateLiveScoringInput,
  ZUpdateScoringResult,
} from "../../engagement/moderation/scorer/scoring-settings.schema";
import { scoringOverview } from "../../engagement/moderation/scorer/shadow";
import { adminProcedure, createTRPCRouter, ownerProcedure } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const scoringRouter = createTRPCRouter({
  /** The settings, the adaptive layer's counts and the shadow's figures over the last 30 days. */
  overview: moderatorProcedure
    .input(z.void())
    .output(ZScoringOverview)
    .query(({ ctx }) => scoringOverview(ctx.db, { actor: ctx.actor, now: new Date() })),

  /** Turn the live adaptive layer or external scorer on or off (audited). */
  updateLive: moderatorProcedure
    .input(ZUpdateLiveScoringInput)
    .output(ZUpdateScoringResult)
    .mutation(({ ctx, input }) => updateLiveScoring(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Try a configuration in shadow (audited); 422 for the external scorer when none is configured. */
  setShadow: moderatorProcedure
    .input(ZSetShadowInput)
    .output(ZUpdateScoringResult)
    .mutation(({ ctx, input }) => setShadowScoring(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** The shadow configuration becomes live (owners; audited); 409 without one. */
  promote: ownerProcedure
    .input(z.void())
    .output(ZUpdateScoringResult)
    .mutation(({ ctx }) => promoteShadowScoring(ctx.db, { actor: ctx.actor, now: new Date() })),

  /** Stop trying the shadow configuration (owners; audited); 409 without one. */
  discard: ownerProcedure
    .input(z.void())
    .output(ZUpdateScoringResult)
    .mutation(({ ctx }) => discardShadowScoring(ctx.db, { actor: ctx.actor, now: new Date() })),
});
