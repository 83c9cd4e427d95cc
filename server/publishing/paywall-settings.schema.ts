/**
 * The account's paywall point settings (dashboard → Subscriptions → Paywall meter, "Paywall
 * point"): where a closed story's free part ends when it sets no point of its own, and what the
 * public content API serves of it (./paid-part.ts).
 */
import { z } from "zod";

export const ZPaywallPointInput = z.object({
  paywallDefaultElements: z
    .number({ error: "A whole number of story elements, from 0 to 1000." })
    .int("A whole number of story elements, from 0 to 1000.")
    .min(0, "A whole number of story elements, from 0 to 1000.")
    .max(1000, "A whole number of story elements, from 0 to 1000."),
  contentApiAccess: z.enum(["free_part", "full"], { error: 'Either "free_part" or "full".' }),
});
export type TPaywallPointInput = z.infer<typeof ZPaywallPointInput>;

export const ZPaywallPointView = ZPaywallPointInput.extend({
  /** Whether the asking staff member may change them (owners). */
  canEdit: z.boolean(),
});
export type TPaywallPointView = z.infer<typeof ZPaywallPointView>;
