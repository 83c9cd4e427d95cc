/**
 * Bodies of bridgekeeper's member account calls (/api/auth/v1/users/...): one-time codes, profile,
 * password reset with a code, e-mail verification links. zod only.
 */
import { z } from "zod";

import { refuseNul } from "../publishing/content.schema";
import { zMemberEmail, zMemberPassword } from "./members.schema";

/** A one-time code: 6 digits (spaces and dashes a reader may type are dropped). */
export const zOtp = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((value) => String(value).replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "must be the 6-digit code from the e-mail"));

/**
 * POST /api/auth/v1/users/send-otp. Signed in: the code goes to `email` when given (an address the
 * member wants to change to), else to the member's own. Not signed in: to `email`, only when it is
 * a member's (reset-password); the answer is the same either way.
 */
export const ZSendOtpInput = refuseNul(z.object({ email: zMemberEmail.optional() }));

const zText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const zNullableText = (max: number) =>
  z
    .union([zText(max), z.null()])
    .transform((v) => (v === null || v === "" ? null : v))
    .optional();

const zHttpUrlOrNull = z
  .union([
    z
      .string()
      .trim()
      .max(2048, "must be at most 2048 characters")
      .refine((value) => {
        if (value === "") return true;
        try {
          const url = new URL(value);
          return url.protocol === "https:" || url.protocol === "http:";
        } catch {
          return false;
        }
      }, "must be an http(s) URL"),
    z.null(),
  ])
  .transform((v) => (v === null || v === "" ? null : v))
  .optional();

/**
 * POST /api/auth/v1/users/profile: the fields of the signed-in member that need no proof. Any other
 * key (clients often send the whole user back) is ignored; the e-mail changes only with a code
 * (update-with-otp).
 */
export const ZUpdateProfileInput = refuseNul(
  z.object({
    name: zText(200).min(1, "must not be empty").optional(),
    "first-name": zNullableText(100),
    "last-name": zNullableText(100),
    bio: zNullableText(2000),
    "avatar-url": zHttpUrlOrNull,
    "avatar-s3-key": zNullableText(500),
    "twitter-handle": zNullableText(100),
    "communication-email": z
      .union([zMemberEmail, z.literal(""), z.null()])
      .transform((v) => (v ? v : null))
      .optional(),
    email: z.string().optional(),
  }),
);
export type TUpdateProfileInput = z.output<typeof ZUpdateProfileInput>;

/** POST /api/auth/v1/users/update-with-otp: {otp, user: {email?, "phone-number"?, name?, …}}. */
export const ZUpdateWithOtpInput = refuseNul(
  z.object({
    otp: zOtp,
    user: z.object({
      email: zMemberEmail.optional(),
      "phone-number": z
        .union([
          z
            .string()
            .trim()
            .regex(/^\+?[0-9 ()-]{4,30}$/, "must be a phone number, e.g. +14155550123"),
          z.null(),
        ])
        .optional(),
      name: zText(200).min(1, "must not be empty").optional(),
    }),
  }),
);
export type TUpdateWithOtpInput = z.output<typeof ZUpdateWithOtpInput>;

/** POST /api/auth/v1/users/reset-password: {email, otp, "new-password"}. */
export const ZResetPasswordWithOtpInput = refuseNul(
  z.object({ email: zMemberEmail, otp: zOtp, "new-password": zMemberPassword }),
);

/** POST /api/auth/v1/users/send-verification-link: {email, "redirect-url"}. */
export const ZSendVerificationLinkInput = refuseNul(
  z.object({
    email: zMemberEmail,
    "redirect-url": z.string().trim().max(2048, "must be at most 2048 characters").optional(),
  }),
);

/** GET /api/auth/v1/users/verify-email?token=… (the link in the e-mail). */
export const ZVerifyEmailQuery = z.object({ token: z.string().trim().min(1, "is required").max(200) });
