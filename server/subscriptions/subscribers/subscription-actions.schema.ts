/**
 * Inputs of the subscriptions of a subscriber (spec §4.2, §4.3, §8 extend_to): lists, metadata,
 * cancel and extend, for the server API, the client API and the dashboard alike.
 */
import { z } from "zod";

import { zCursorPaging } from "../../cursor-page.schema";
import { LAST_DAY } from "../../dates.schema";
import { identityValueIssue, MAX_IDENTITY_LENGTH, ZProvider } from "./subscribers.schema";

/** The stored statuses of a subscription as the wire and the dashboard write them. */
export const SUBSCRIPTION_STATUSES_WIRE = ["pending", "active", "cancelled", "failed", "expired"] as const;

/**
 * What the dashboard's list filters by: a stored status, or `paused` (stored cancelled or expired
 * with an open pause, ../recurring/pauses.ts; the `cancelled` and `expired` filters leave those out).
 */
export const SUBSCRIPTION_STATUS_FILTERS = [...SUBSCRIPTION_STATUSES_WIRE, "paused"] as const;
export type TSubscriptionStatusFilter = (typeof SUBSCRIPTION_STATUS_FILTERS)[number];

export const SUBSCRIPTION_METADATA_LIMITS = { keys: 50, bytes: 8_192, notes: 2_000, maxBodyBytes: 32_768 };

/** A subscription's metadata: a free-form object, at most 50 top-level keys and 8 kB as JSON. */
export const ZSubscriptionMetadata = z
  .record(z.string().min(1).max(100), z.json())
  .refine((o) => Object.keys(o).length <= SUBSCRIPTION_METADATA_LIMITS.keys, {
    message: `at most ${SUBSCRIPTION_METADATA_LIMITS.keys} keys`,
  })
  .refine((o) => Buffer.byteLength(JSON.stringify(o)) <= SUBSCRIPTION_METADATA_LIMITS.bytes, {
    message: `at most ${SUBSCRIPTION_METADATA_LIMITS.bytes} bytes as JSON`,
  });
export type TSubscriptionMetadata = z.output<typeof ZSubscriptionMetadata>;

export const ZNotes = z.string().max(SUBSCRIPTION_METADATA_LIMITS.notes).nullable();

/** `<id>.json` or `<id>` in a path: a positive integer. */
export const ZSubscriptionIdParam = z
  .string()
  .regex(/^[1-9]\d{0,9}(\.json)?$/, "must be a subscription id")
  .transform((s) => Number.parseInt(s, 10))
  .refine((n) => n <= 2_147_483_647, "must be a subscription id");

/** `active_only=true` (also 1/yes); anything else lists every subscription. */
export const ZActiveOnly = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** §8: `indefinitely`, or a calendar date YYYY-MM-DD (checked to exist: no 2027-02-30). */
export const ZExtendTo = z.union([
  z.literal("indefinitely"),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be indefinitely or a date YYYY-MM-DD")
    .refine((s) => {
      const d = new Date(`${s}T00:00:00.000Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, "must be an existing date YYYY-MM-DD")
    .refine((s) => s <= LAST_DAY, `must be a date up to ${LAST_DAY}`),
]);
export type TExtendTo = z.output<typeof ZExtendTo>;

// ─── The dashboard (tRPC subscriptions.subscriptions*) ──────────────────────────────────────

export const ZListSubscriptionsInput = z.object({
  /** Subscriber e-mail, name or identity value containing it (case-insensitive). */
  q: z.string().trim().max(200).default(""),
  status: z.enum(SUBSCRIPTION_STATUS_FILTERS).optional(),
  planId: z.number().int().positive().optional(),
  memberId: z.number().int().positive().optional(),
  ...zCursorPaging,
});
export type TListSubscriptionsInput = z.input<typeof ZListSubscriptionsInput>;

export const ZSubscriptionIdInput = z.object({ id: z.number().int().positive() });
export const ZStaffExtendInput = z.object({ id: z.number().int().positive(), extendTo: ZExtendTo });

// ─── Members of a group_access subscription (spec §4.2 …/members) ───────────────────────────

/** POST …/members: {member:{provider, identity, name?}}. */
export const ZAddGroupMemberBody = z.object({
  member: z
    .object({
      provider: ZProvider,
      identity: z.string().trim().min(1, "is required").max(MAX_IDENTITY_LENGTH),
      name: z.string().trim().min(1).max(200).optional(),
    })
    .superRefine((m, ctx) => {
      const issue = identityValueIssue(m.provider, m.identity);
      if (issue) ctx.addIssue({ code: "custom", path: ["identity"], message: issue });
    }),
});

/** DELETE …/members?ids[]=1&ids[]=2: member ids, at least one, at most 100. */
export const ZRemoveGroupMembersQuery = z.object({
  ids: z
    .union([z.string(), z.array(z.string())], { message: "is required (ids[]=<member id>)" })
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^[1-9]\d{0,9}$/, "must be member ids")
            .transform(Number)
            .pipe(z.number().int().max(2_147_483_647)),
        )
        .min(1, "is required (ids[]=<member id>)")
        .max(100),
    ),
});

// ─── Plan switching (spec §4.3 …/switch_plan[/preview]) ─────────────────────────────────────

/** POST …/switch_plan/preview: {subscription_plan_id, switch_type}. */
export const ZSwitchPreviewBody = z.object({
  subscription_plan_id: z.number().int().positive().max(2_147_483_647),
  switch_type: z.enum(["upgrade", "crossgrade", "downgrade"]),
});

/**
 * POST …/switch_plan: {attempt_token, payment_token?} plus the gateway's own small fields (a
 * signature, an order id), which the payment adapter reads.
 */
export const ZSwitchBody = z
  .object({
    attempt_token: z.string().min(1, "is required (from the preview)").max(200),
    payment_token: z.string().trim().min(1).max(256).nullable().optional(),
  })
  .catchall(z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
  .refine((o) => Object.keys(o).length <= 30, { message: "has too many fields" });

/** Revenue staff pause a live recurring subscription for 1 to 12 of its periods. */
export const ZStaffPauseInput = z.object({
  id: z.number().int().positive(),
  periods: z.number().int("must be a whole number").min(1, "must be at least 1").max(12, "must be at most 12"),
});
export type TStaffPauseInput = z.infer<typeof ZStaffPauseInput>;
