/**
 * Dashboard sign-in: the form's fields and the error codes the sign-in page understands.
 * Imported by the sign-in form: zod only.
 */
import { z } from "zod";

export const ZAdminSignInInput = z.object({
  email: z.string().trim().toLowerCase().min(1, "is required").max(320),
  // Bounded so nobody makes the server hash a megabyte; far above any real passphrase.
  password: z.string().min(1, "is required").max(1024),
});

/**
 * What a failed sign-in reports (next-auth's `error`). One code, one message, for a wrong password,
 * an unknown e-mail and a disabled user alike: the page must not reveal which e-mails exist.
 */
const SIGN_IN_ERROR_MESSAGES = {
  CredentialsSignin: "Wrong e-mail or password.",
  RateLimited: "Too many sign-in attempts. Wait a few minutes and try again.",
  SignInUnavailable: "Signing in is not possible right now. Try again in a moment.",
} as const;
export type SignInErrorCode = keyof typeof SIGN_IN_ERROR_MESSAGES;

export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return Object.hasOwn(SIGN_IN_ERROR_MESSAGES, code)
    ? SIGN_IN_ERROR_MESSAGES[code as SignInErrorCode]
    : SIGN_IN_ERROR_MESSAGES.SignInUnavailable;
}
