/**
 * Comment exports in one shape, whatever system wrote them (Disqus, WordPress, Remark42, Coral):
 * threads (the pages comments are on) and posts (the comments), as each source's reader makes
 * them from the file. Pure.
 */
import type { HtmlNewlines } from "../html-to-ops";
import type { FileProblem } from "../types";

/** A page comments are on, as the export names it. */
export type CommentThread = {
  sourceId: string;
  /** As written in the file (normalised when planned). */
  url: string | null;
  title: string | null;
  createdAt: Date | null;
  line: number;
  /**
   * What the site named the thread by, when the export says (Disqus's <id>: the Disqus WordPress
   * plugin writes "<post id> <guid>"; a WordPress export's own thread is its post id): the first
   * clue to the imported story (story-match.ts).
   */
  identifier?: string | null;
  /** No new comments there (Disqus <isClosed>, WordPress comment_status "closed"): the page is closed. */
  closed?: boolean;
};

/**
 * Where a comment stands in the system it comes from: "approved" and "rejected" are a
 * moderator's decisions where the system keeps them (Coral), "published" and "held" are not.
 */
export type SourceState = "published" | "approved" | "held" | "rejected" | "spam" | "deleted";

export type CommentAuthor = {
  name: string | null;
  /** As written (spelling kept for the report); matched lower-cased and trimmed. */
  email: string | null;
  /** The author's account in the source system (a Disqus username, a WordPress user id). */
  accountId: string | null;
  /** The source says the author had no account and no e-mail to be known by (a Disqus guest). */
  anonymous: boolean;
  /** The site's staff person this account is (a WordPress user the export lists as <wp:author>). */
  staff?: StaffPerson | null;
};

/** A person of the old site's staff, as the export lists them (WordPress: <wp:author>). */
export type StaffPerson = { login: string; name: string | null; email: string | null };

/**
 * The key an author is one person by across a file: their e-mail (the staff person's first), else
 * their account in the source system; null for a guest. Spam-only authors are counted by it.
 */
export function authorKey(provider: string, author: CommentAuthor): string | null {
  if (author.anonymous) return null;
  const email = normaliseEmail(author.staff?.email) ?? normaliseEmail(author.email);
  if (email) return `email:${email}`;
  const account = author.accountId?.trim();
  return account ? `${provider}:${account}` : null;
}

export type CommentPost = {
  sourceId: string;
  threadId: string | null;
  parentId: string | null;
  createdAt: Date | null;
  html: string;
  newlines: HtmlNewlines;
  state: SourceState;
  /** Also marked spam (a deleted spam post stays spam). */
  spam: boolean;
  author: CommentAuthor;
  /** The source says its author wrote the page (a WordPress post's author replying): is_page_author. */
  pageAuthor?: boolean;
  /** Not a reader's comment at all (a pingback): skipped with this reason. */
  skip: string | null;
  /** What is wrong with this post in the file (an undefined entity, a broken date): refused. */
  errors: string[];
  /** Something the operator should know about it (its author was blocked there): a report note, once. */
  note?: string | null;
  line: number;
};

export type CommentRecord =
  | { type: "root"; name: string }
  | { type: "thread"; thread: CommentThread }
  /** The site the file's ids belong to (a WordPress export's blog URL), normalised (siteScope). */
  | { type: "site"; site: string }
  | { type: "post"; post: CommentPost }
  | { type: "problem"; problem: FileProblem };

/** Reads one system's export as CommentRecords, streaming. */
export type CommentReader = {
  /** The identity provider of its authors' accounts ("disqus", "wordpress"). */
  provider: string;
  /** The root element a file of this format has. */
  root: string;
  /** What the format is called in messages ("a Disqus export"). */
  title: string;
  read: (path: string, onBytes: (bytes: Buffer) => void) => AsyncIterable<CommentRecord>;
};

/** "true"/"1" (any case, trimmed): the export's booleans. */
export function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(true|1)$/i.test(value.trim());
}

/**
 * A date of an export: ISO 8601 (Disqus: "2012-12-12T12:12:12Z", the zone optional and then UTC)
 * or WordPress's "2019-03-04 12:34:56" (UTC for `_gmt` fields). Null when absent or WordPress's
 * zero date; "invalid" when it cannot be read.
 */
export function parseExportDate(value: string | undefined): Date | null | "invalid" {
  const text = value?.trim();
  if (!text || text.startsWith("0000-00-00")) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) return "invalid";
  const zone = m[8] ? (m[8] === "Z" ? "Z" : m[8].replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")) : "Z";
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${m[7] ?? ""}${zone}`);
  return Number.isNaN(date.getTime()) ? "invalid" : date;
}

/** An e-mail as Masthead keys members by it (members.email: trimmed, lower-cased), or null when it is none. */
export function normaliseEmail(email: string | null | undefined): string | null {
  const value = email?.trim().toLowerCase();
  if (!value || value.length > 254) return null;
  return /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(value) ? value : null;
}

/**
 * A guest's name as comments keep it (comments.schema.ts ZGuestName: 1 to 50 letters, digits,
 * spaces, apostrophes, hyphens and underscores): other characters dropped, cut to 50; null when
 * nothing is left (shown as "Guest").
 */
export function guestNameOf(name: string | null): string | null {
  const kept = (name ?? "")
    .replace(/[^\p{L}\p{M}\p{N}' ’_-]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 50)
    .trim();
  return kept || null;
}

/** A post the file names but that cannot be read: nothing but its id and line (its errors say why). */
export function emptyPost(sourceId: string, line: number): CommentPost {
  return {
    sourceId,
    threadId: null,
    parentId: null,
    createdAt: null,
    html: "",
    newlines: "html",
    state: "published",
    spam: false,
    author: { name: null, email: null, accountId: null, anonymous: true },
    skip: null,
    errors: [],
    line,
  };
}
