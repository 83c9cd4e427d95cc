/**
 * Secret tokens handed out once (member sessions, password-reset links, OAuth grants): 32 random
 * bytes in base64url, kept only as their SHA-256, so a leaked database leaks no token.
 */
import { createHash, randomBytes } from "node:crypto";

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}
