/**
 * Subscribers on the wire (spec §2.2 Subscriber identity, Subscriber, Subscriber metadata; §4.2
 * subscriber_identities; §4.3 members/me/metadata). See docs/subscriptions.md, "Subscribers and
 * identities".
 */
import { z } from "zod";

/** A provider name: lower-case letters, digits, `_` and `-`, starting with a letter (2–32 long). */
const PROVIDER_PATTERN = /^[a-z][a-z0-9_-]{1,31}$/;
/** E.164: `+`, a country code not starting with 0, at most 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const MAX_IDENTITY_LENGTH = 254;

export const ZProvider = z
  .string()
  .regex(PROVIDER_PATTERN, "must be 2-32 lower-case letters, digits, _ or -, starting with a letter");

const ZEmail = z.email("must be an e-mail address").max(MAX_IDENTITY_LENGTH);
const ZPhone = z.string().regex(E164_PATTERN, "must be a phone number in E.164 form (+ and country code)");

/** The stored form of an identity's value: e-mails trimmed and lower-cased, others trimmed. */
export function normaliseIdentityValue(provider: string, value: string): string {
  const trimmed = value.trim();
  return provider === "email" ? trimmed.toLowerCase() : trimmed;
}

/**
 * Why `value` is not an identity of `provider` (null when it is): e-mails must be e-mails,
 * phone numbers E.164, others 1–254 characters without control characters.
 */
export function identityValueIssue(provider: string, value: string): string | null {
  const v = normaliseIdentityValue(provider, value);
  if (provider === "email") return ZEmail.safeParse(v).success ? null : "must be an e-mail address";
  if (provider === "phone") return ZPhone.safeParse(v).success ? null : "must be a phone number in E.164 form";
  if (v.length < 1 || v.length > MAX_IDENTITY_LENGTH || /[\u0000-\u001f\u007f]/.test(v))
    return `must be 1-${MAX_IDENTITY_LENGTH} characters without control characters`;
  return null;
}

/** `<provider>/<identity>` of the server API paths (the identity checked against its provider). */
export const ZSubscriberPathParams = z
  .object({ provider: ZProvider, identity: z.string().max(MAX_IDENTITY_LENGTH) })
  .superRefine((o, ctx) => {
    const issue = identityValueIssue(o.provider, o.identity);
    if (issue) ctx.addIssue({ code: "custom", path: ["identity"], message: issue });
  });

/** The optional second identity, tried when no subscriber is at the first (§4): its fields… */
export const ALTERNATE_IDENTITY_FIELDS = {
  alternate_provider: ZProvider.optional(),
  alternate_identity: z.string().max(MAX_IDENTITY_LENGTH).optional(),
};

/** …and their rule: both or neither, and the identity valid for its provider. */
export function refineAlternateIdentity(
  o: { alternate_provider?: string; alternate_identity?: string },
  ctx: z.RefinementCtx,
): void {
  if (!o.alternate_provider && !o.alternate_identity) return;
  if (!o.alternate_provider || !o.alternate_identity) {
    ctx.addIssue({
      code: "custom",
      path: [o.alternate_provider ? "alternate_identity" : "alternate_provider"],
      message: "alternate_provider and alternate_identity go together",
    });
    return;
  }
  const issue = identityValueIssue(o.alternate_provider, o.alternate_identity);
  if (issue) ctx.addIssue({ code: "custom", path: ["alternate_identity"], message: issue });
}

export const ZAlternateIdentity = z.object(ALTERNATE_IDENTITY_FIELDS).superRefine(refineAlternateIdentity);

export const ZAddIdentityBody = z
  .object({
    subscriber_identity: z
      .object({ provider: ZProvider, value: z.string().max(MAX_IDENTITY_LENGTH) })
      .superRefine((o, ctx) => {
        const issue = identityValueIssue(o.provider, o.value);
        if (issue) ctx.addIssue({ code: "custom", path: ["value"], message: issue });
      }),
    alternate_provider: ZProvider.optional(),
    alternate_identity: z.string().max(MAX_IDENTITY_LENGTH).optional(),
  })
  .superRefine((o, ctx) => {
    const alt = ZAlternateIdentity.safeParse({
      alternate_provider: o.alternate_provider,
      alternate_identity: o.alternate_identity,
    });
    if (!alt.success) for (const issue of alt.error.issues) ctx.addIssue({ ...issue, code: "custom" });
  });

const ZSubscriberIdentity = z.object({ provider: z.string(), value: z.string() });
export type TSubscriberIdentity = z.output<typeof ZSubscriberIdentity>;
// ─── Metadata ────────────────────────────────────────────────────────────────────────────────

export const ADDRESS_KEYS = ["line1", "line2", "city", "state", "country", "pincode"] as const;
export const METADATA_LIMITS = { addressField: 200, otherKeys: 50, otherBytes: 8_192, maxBodyBytes: 32_768 };

const ZAddressField = z
  .union([z.string(), z.number().transform(String)])
  .pipe(z.string().max(METADATA_LIMITS.addressField))
  .nullable()
  .optional();

/** Only line1, line2, city, state, country and pincode are kept; other keys are dropped (§2.2). */
const ZAddress = z.object(
  Object.fromEntries(ADDRESS_KEYS.map((k) => [k, ZAddressField])) as Record<
    (typeof ADDRESS_KEYS)[number],
    typeof ZAddressField
  >,
);

/** Free-form, but bounded: at most 50 top-level keys and 8 kB as JSON. */
const ZOther = z
  .record(z.string().max(100), z.json())
  .refine((o) => Object.keys(o).length <= METADATA_LIMITS.otherKeys, {
    message: `at most ${METADATA_LIMITS.otherKeys} keys`,
  })
  .refine((o) => Buffer.byteLength(JSON.stringify(o)) <= METADATA_LIMITS.otherBytes, {
    message: `at most ${METADATA_LIMITS.otherBytes} bytes as JSON`,
  });

/** The body of POST/PUT members/me/metadata: every part optional; unknown top-level keys dropped. */
export const ZSubscriberMetadataInput = z.object({
  address: ZAddress.nullable().optional(),
  phone_number: z
    .string()
    .regex(E164_PATTERN, "must be a phone number in E.164 form (+ and country code)")
    .nullable()
    .optional(),
  other: ZOther.nullable().optional(),
});
export type TSubscriberMetadataInput = z.output<typeof ZSubscriberMetadataInput>;

export type TAddress = Partial<Record<(typeof ADDRESS_KEYS)[number], string>>;
export type TSubscriberMetadata = {
  address: TAddress | null;
  phone_number: string | null;
  other: Record<string, unknown> | null;
};

const ZSubscriberMetadata = z.object({
  address: z.record(z.string(), z.string()).nullable(),
  phone_number: z.string().nullable(),
  other: z.record(z.string(), z.unknown()).nullable(),
});

export const ZSubscriberWire = z.object({
  id: z.number(),
  name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  metadata: ZSubscriberMetadata.nullable(),
  cumulative_end_timestamps: z.object({
    standard_subscriptions_cumulative_end_timestamp: z.string().nullable(),
    campaign_subscriptions_cumulative_end_timestamp: z.string().nullable(),
  }),
  subscriber_identities: z.array(ZSubscriberIdentity),
});
export type TSubscriberWire = z.output<typeof ZSubscriberWire>;

/** The client API's query: the account key and the reader's JWT are read by the auth scheme. */
export const ZClientQuery = z.object({
  key: z.string().optional(),
  masthead_jwt: z.string().optional(),
  accesstype_jwt: z.string().optional(),
  svc_jwt: z.string().optional(),
});

/** The dashboard's search (tRPC subscribers.search): paying subscribers (the default) or every member. */
export const ZSearchSubscribersInput = z.object({
  q: z.string().max(200).default(""),
  limit: z.number().int().min(1).max(100).default(25),
  who: z.enum(["paying", "all"]).default("paying"),
});
export type TSearchSubscribersInput = z.output<typeof ZSearchSubscribersInput>;

/** Where a reader stands as a subscriber, strongest first (subscriber-standing.ts). */
export const SUBSCRIBER_STANDINGS = ["active", "grace", "trial", "paused", "cancelling", "lapsed", "none"] as const;
const ZSubscriberStanding = z.enum(SUBSCRIBER_STANDINGS);
export type TSubscriberStanding = z.output<typeof ZSubscriberStanding>;

/** A row of the dashboard's list: the Subscriber, their sign-in e-mail and their standing. */
export const ZSubscriberRow = ZSubscriberWire.extend({
  email: z.string().nullable(),
  standing: ZSubscriberStanding,
});
export type TSubscriberRow = z.output<typeof ZSubscriberRow>;
