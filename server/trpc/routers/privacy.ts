/**
 * privacy.* – Settings → Privacy (owners: retention periods and the erased-reader comments rule,
 * with the retention job's last run) and a reader's consent history (revenue staff, on the
 * Subscribers page). docs/privacy.md "Consent and retention".
 */
import { z } from "zod";

import { consentHistory } from "../../privacy/consent/consent";
import { ZConsentHistoryEntry } from "../../privacy/consent/consent.schema";
import { getPrivacySettingsView, updatePrivacySettings } from "../../privacy/retention/privacy-settings";
import { ZPrivacySettingsInput, ZPrivacySettingsView } from "../../privacy/retention/privacy-settings.schema";
import { adminProcedure, createTRPCRouter, ownerProcedure } from "../trpc";

export const privacyRouter = createTRPCRouter({
  /** The account's privacy settings (the defaults where none are saved) and the retention job's last run. */
  settings: ownerProcedure
    .input(z.void())
    .output(ZPrivacySettingsView)
    .query(({ ctx }) => getPrivacySettingsView(ctx.db, { actor: ctx.actor })),

  /** Save them (audited when something changed). */
  updateSettings: ownerProcedure
    .input(ZPrivacySettingsInput)
    .output(ZPrivacySettingsView)
    .mutation(({ ctx, input }) => updatePrivacySettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** A reader's consents given and withdrawn, oldest first, with the wording they agreed to. */
  consentHistory: adminProcedure(["REVENUE"])
    .input(z.object({ memberId: z.number().int().min(1).max(2147483647) }))
    .output(z.array(ZConsentHistoryEntry))
    .query(({ ctx, input }) => consentHistory(ctx.db, ctx.actor.accountId, input.memberId)),
});
