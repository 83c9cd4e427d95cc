/**
 * The signature part of Masthead's signed links and tokens (newsletter and unsubscribe links, story
 * previews, card links, the webhook test receiver): an HMAC written in base64url.
 */
import { timingSafeEqual } from "node:crypto";

/**
 * Whether `given` spells the MAC `expected` in base64url. One spelling per MAC: the last
 * character's unused bits must be zero and nothing may be skipped, so a token has no second valid
 * form. Compared in constant time.
 */
export function base64urlMacMatches(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, "base64url");
  if (bytes.toString("base64url") !== given) return false;
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
