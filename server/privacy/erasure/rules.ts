/**
 * The erasure rule (docs/privacy.md "Erasure"), as pure functions with no IO: what becomes of
 * each kind of a reader's data, how the tombstone member looks, how a comment fares under the
 * account's setting, and how text that names the reader is scrubbed. The steps that apply it, one
 * transaction per area, are ./steps.ts.
 *
 * Vocabulary:
 * - tombstone: the member row an erasure keeps (so invoices, kept comments and every foreign key
 *   still hold), stripped of everything personal; `source` "erased" marks it.
 * - needles: what names the reader in free text and logs: their e-mail addresses (the sign-in
 *   one, the communication one, those their identities claimed) and their names.
 * - comments rule: the account's setting, "keep" (the body stays, shown as by a deleted reader) or
 *   "remove" (gone; a comment others answered stays as a placeholder so the replies keep their thread).
 */
import { ERASED_SOURCE } from "../../members/members.schema";

export type CommentsRule = "keep" | "remove";

/** The reserved domain (RFC 2606) of a tombstone's e-mail: no mail can ever reach it. */
const ERASED_DOMAIN = "erased.invalid";
/** Not a hash verifyPassword accepts (server/auth/password.ts): nobody signs in as a tombstone. */
const UNUSABLE_PASSWORD_HASH = "!erased";
/** What replaces a needle in kept text. */
export const ERASED_MARK = "[erased]";

/** The tombstone's e-mail: unique (the request's id), non-routable, so the old address is free again. */
export function tombstoneEmail(requestId: string): string {
  return `erased-${requestId.toLowerCase()}@${ERASED_DOMAIN}`;
}

/** Every personal field of the member row, as the tombstone has it. */
export function tombstoneFields(requestId: string) {
  return {
    email: tombstoneEmail(requestId),
    name: "",
    username: null,
    firstName: null,
    lastName: null,
    communicationEmail: null,
    passwordHash: UNUSABLE_PASSWORD_HASH,
    bio: null,
    avatarUrl: null,
    avatarS3Key: null,
    twitterHandle: null,
    source: ERASED_SOURCE,
    emailVerified: false,
    phoneNumber: null,
    metadata: {},
    locale: null,
  } as const;
}

type CommentFate = "keep" | "placeholder" | "delete";

/**
 * One of the reader's comments: kept as it is (author shown as a deleted reader) under "keep";
 * under "remove", a comment with replies becomes a placeholder (its body emptied, marked deleted)
 * so the replies keep their thread, and any other is deleted.
 */
export function commentFate(rule: CommentsRule, hasReplies: boolean): CommentFate {
  if (rule === "keep") return "keep";
  return hasReplies ? "placeholder" : "delete";
}

export type Needles = { emails: readonly string[]; names: readonly string[] };

/** The reader's needles: e-mails lower-cased and deduplicated; names of three letters or more. */
export function needlesOf(member: {
  email: string;
  communicationEmail: string | null;
  name: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  identityEmails: readonly (string | null)[];
}): Needles {
  const emails = new Set<string>();
  for (const e of [member.email, member.communicationEmail, ...member.identityEmails]) {
    const v = e?.trim().toLowerCase();
    if (v && v.includes("@") && !v.endsWith(`@${ERASED_DOMAIN}`)) emails.add(v);
  }
  const names = new Set<string>();
  for (const n of [member.name, member.username, member.firstName, member.lastName]) {
    const v = n?.trim();
    if (v && [...v].length >= 3) names.add(v);
  }
  return { emails: [...emails], names: [...names] };
}

/** Every needle, for a first filter of rows (a row that contains none needs no look). */
export const allNeedles = (n: Needles): string[] => [...n.emails, ...n.names];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with every needle replaced by ERASED_MARK, case-insensitively: an e-mail wherever it is,
 * a name only as a whole word (so "Mark" leaves "Bookmark" alone).
 */
export function scrubText(text: string, needles: Needles): string {
  let out = text;
  for (const email of needles.emails) out = out.replace(new RegExp(escapeRegExp(email), "giu"), ERASED_MARK);
  for (const name of needles.names)
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, "giu"), ERASED_MARK);
  return out;
}

/** A JSON value with every string (and object key) scrubbed; `changed` says whether anything was. */
export function scrubJson(value: unknown, needles: Needles): { value: unknown; changed: boolean } {
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const s = scrubText(v, needles);
      if (s !== v) changed = true;
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, inner] of Object.entries(v)) {
        const key = scrubText(k, needles);
        if (key !== k) changed = true;
        out[key] = walk(inner);
      }
      return { ...out };
    }
    return v;
  };
  const result = walk(value);
  return { value: result, changed };
}

/** A subscription that must be stopped at its gateway (and ended) before anything local is removed. */
export function needsGatewayStop(sub: { status: string; gatewayState: string | null }): boolean {
  if (sub.status === "ACTIVE" || sub.status === "PENDING") return true;
  // Cancelled at the period end: the gateway still holds it until then.
  return sub.status === "CANCELLED" && (sub.gatewayState === "cancelling" || sub.gatewayState === "paused");
}
