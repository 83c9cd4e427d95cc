/**
 * Members (readers with an account on the publisher's site), their sessions and story votes:
 * request bodies of the member routes and the member wire object. zod only, so the dashboard may
 * import it.
 *
 * Field names follow the content API (kebab-case) and what real clients send: quintype-ruby and
 * quintype-api-php post to /api/member..., @quintype/bridgekeeper-js to /api/auth/v1/...
 */
import { z } from "zod";

import { nestsAtMost, refuseNul } from "../publishing/content.schema";

const NEWSLETTER_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A newsletter's slug, the name readers subscribe by (the signup below, server/newsletters):
 * trimmed as forms send it, or taken exactly (a path names the newsletter as written).
 */
const newsletterSlug = ({ trim }: { trim: boolean }) =>
  (trim ? z.string().trim() : z.string())
    .min(1, "is required")
    .max(60, "must be at most 60 characters")
    .regex(NEWSLETTER_SLUG, "may hold only lower-case letters, digits and single hyphens");

export const zNewsletterSlug = newsletterSlug({ trim: true });
/** Not trimmed: `/daily%0D%0A` is no other address of `/daily`. */
export const zNewsletterSlugExact = newsletterSlug({ trim: false });

/** Member.source of an erased reader's tombstone (docs/privacy.md "Erasure"): nobody to find or sign in. */
export const ERASED_SOURCE = "erased";

const MEMBER_PASSWORD_MIN = 8;
const MEMBER_PASSWORD_MAX = 200;
/** Largest member metadata object, as JSON (bytes). */
export const MEMBER_METADATA_MAX_BYTES = 16 * 1024;
/** Deepest nesting of objects and arrays in member metadata. */
const MEMBER_METADATA_MAX_DEPTH = 32;

export const zMemberEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be a valid e-mail address"));

export const zMemberPassword = z
  .string()
  .min(MEMBER_PASSWORD_MIN, `must be at least ${MEMBER_PASSWORD_MIN} characters`)
  .max(MEMBER_PASSWORD_MAX, `must be at most ${MEMBER_PASSWORD_MAX} characters`);

const zUsername = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .regex(/^[^\s\p{Cc}]+$/u, "must not contain spaces or control characters");

const zName = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const zOptionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).optional();

/**
 * POST /api/member and POST /api/auth/v1/signup. `name` may be left out (bridgekeeper forms often
 * send only a username): it then defaults to the username, else to the e-mail's local part.
 */
export const ZMemberSignupInput = refuseNul(
  z.object({
    name: zName.optional(),
    username: zUsername.optional(),
    email: zMemberEmail,
    password: zMemberPassword,
    "first-name": zOptionalText(100),
    "last-name": zOptionalText(100),
    /** true: create the member without starting a session (bridgekeeper's register option). */
    "dont-login": z.boolean().optional(),
    /**
     * The newsletters (slugs) the reader ticked while signing up, e.g. on the registration wall:
     * each joined with a consent record. Left out or empty: none.
     */
    newsletters: z.array(zNewsletterSlug).max(10, "names at most 10 newsletters").optional(),
  }),
);
export type TMemberSignupInput = z.output<typeof ZMemberSignupInput>;

/**
 * POST /api/member/login and POST /api/auth/v1/login: the e-mail or the username, and the
 * password. Only the length of the password is checked here: login must not reveal the policy.
 */
export const ZMemberLoginInput = refuseNul(
  z
    .object({
      email: z.string().trim().max(254).optional(),
      username: z.string().trim().max(254).optional(),
      password: z
        .string()
        .min(1, "is required")
        .max(MEMBER_PASSWORD_MAX, `must be at most ${MEMBER_PASSWORD_MAX} characters`),
    })
    .refine((input) => Boolean(input.email || input.username), {
      path: ["email"],
      message: "send the e-mail (or the username)",
    }),
);
export type TMemberLoginInput = z.output<typeof ZMemberLoginInput>;

/**
 * POST /api/member/forgot-password and POST /api/auth/v1/users/forgot-password. `page: "hosted"`
 * (sent by Masthead's own "Forgot password?" page) makes the link open the hosted reset page.
 */
export const ZForgotPasswordInput = z.object({ email: zMemberEmail, page: z.enum(["site", "hosted"]).optional() });

const zResetToken = z.string().trim().min(1, "is required").max(200, "is not a reset token");

/** POST /api/member/password/reset (and POST /api/member/password). */
export const ZResetPasswordInput = refuseNul(z.object({ token: zResetToken, password: zMemberPassword }));

/** POST /api/auth/v1/users/reset-password-with-token (bridgekeeper). */
export const ZBridgekeeperResetInput = refuseNul(
  z
    .object({
      token: zResetToken,
      "new-password": zMemberPassword,
      "confirm-password": z.string().max(MEMBER_PASSWORD_MAX),
    })
    .refine((input) => input["new-password"] === input["confirm-password"], {
      path: ["confirm-password"],
      message: "must match new-password",
    })
    // The same reset as ZResetPasswordInput, under bridgekeeper's names.
    .transform((input) => ({ token: input.token, password: input["new-password"] })),
);

/**
 * POST /api/member/metadata: the member's metadata object, which REPLACES the stored one (send
 * the whole object; a key left out is removed). quintype-ruby wraps it as {"metadata": {...}}; a
 * body whose only key is "metadata", holding an object, is unwrapped.
 */
export const ZMemberMetadataInput = refuseNul(
  z
    .record(z.string(), z.unknown())
    // Checked first: JSON.stringify below, and the database, fail on deeper values.
    .refine((body) => nestsAtMost(body, MEMBER_METADATA_MAX_DEPTH), {
      message: `must nest at most ${MEMBER_METADATA_MAX_DEPTH} levels deep`,
      abort: true,
    })
    .transform((body) => {
      const keys = Object.keys(body);
      const inner = body.metadata;
      return keys.length === 1 && keys[0] === "metadata" && inner && typeof inner === "object" && !Array.isArray(inner)
        ? (inner as Record<string, unknown>)
        : body;
    })
    .refine((metadata) => Buffer.byteLength(JSON.stringify(metadata)) <= MEMBER_METADATA_MAX_BYTES, {
      message: `must be at most ${MEMBER_METADATA_MAX_BYTES} bytes as JSON`,
    }),
);

/** The member as the content API returns it (spec §2.3): kebab-case, epoch ms, never a secret. */
export const ZMemberWire = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  "first-name": z.string().nullable(),
  "last-name": z.string().nullable(),
  email: z.string(),
  "email-verified": z.boolean(),
  "phone-number": z.string().nullable(),
  "communication-email": z.string().nullable(),
  bio: z.string().nullable(),
  "avatar-url": z.string().nullable(),
  "avatar-s3-key": z.string().nullable(),
  "twitter-handle": z.string().nullable(),
  source: z.string(),
  "publisher-id": z.number().int(),
  metadata: z.record(z.string(), z.unknown()),
  "created-at": z.number().int(),
  "updated-at": z.number().int(),
});
export type TMemberWire = z.infer<typeof ZMemberWire>;
