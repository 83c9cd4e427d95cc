/**
 * Comments of the engagement API (spec §2.1, §4.1; docs/engagement.md): what clients send and
 * what they get back. Field names are snake_case (area A).
 *
 * A comment body is `{ops: [...]}` with only the spec's four shapes of op, validated as data and
 * stored as data (never turned into HTML here):
 * - text or emoji: `{insert: "text"}`;
 * - link: `{attributes: {link: "<http(s) URL>"}, insert: "text"}`;
 * - mention: `{attributes: {mention: {name, slug, avatar, id, target, class, "end-point"?}, link: "<slug>"},
 *   insert: {mentions: true}}`;
 * - image: `{insert: {image: "<URL of an image Masthead serves>"}}` (the host is checked by the
 *   service, which knows the account's image CDN).
 * Unknown keys, other shapes and nesting are refused (400). Sizes beyond COMMENT_LIMITS are 413
 * (checked by the service, so the error says which limit).
 */
import { z } from "zod";

import { PG_INT_MAX, zWholeNumber } from "../params.schema";

export const COMMENT_LIMITS = {
  /** Characters of text (text, link and mention inserts together). */
  maxTextLength: 10_000,
  /** Ops in one body. */
  maxOps: 50,
  /** Bytes of a request body on the comment endpoints. */
  maxBodyBytes: 256 * 1024,
};

// C0 controls other than tab and line feed (carriage returns too), DEL and C1 controls.
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;
const noControls = (s: string) => !CONTROL.test(s);
const CONTROL_ISSUE = "must not contain control characters (other than tab and line feed)";

const zText = z.string().refine(noControls, CONTROL_ISSUE);
const zShort = (max: number) => z.string().max(max).refine(noControls, CONTROL_ISSUE);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}
const zHttpUrl = z
  .string()
  .max(2048)
  .refine((s) => noControls(s) && !/\s/.test(s) && isHttpUrl(s), "must be an absolute http(s) URL");

/**
 * What a mention may point at: a slug, a path or an http(s) URL, never another scheme
 * (`javascript:`, `data:`…), since a widget renders it as a link.
 */
const zMentionRef = (minLength?: number) =>
  (minLength ? zShort(200).min(minLength) : zShort(200)).refine(
    (s) => noControls(s) && !/\s/.test(s) && (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) || isHttpUrl(s)),
    "must be a slug, a path or an http(s) URL",
  );

const ZTextOp = z.strictObject({ insert: zText.min(1) });
export const ZLinkOp = z.strictObject({ attributes: z.strictObject({ link: zHttpUrl }), insert: zText.min(1) });
const ZMention = z.strictObject({
  name: zShort(200).min(1),
  slug: zMentionRef(1),
  avatar: z.union([zHttpUrl, z.literal(""), z.null()]).optional(),
  id: z.union([zShort(100).min(1), z.number().int()]).transform(String),
  target: zShort(20)
    .regex(/^_?[A-Za-z0-9-]*$/, "must be a link target such as _blank")
    .optional(),
  class: zShort(100)
    .regex(/^[A-Za-z0-9_ -]*$/, "must be class names")
    .optional(),
  "end-point": zMentionRef().optional(),
});
const ZMentionOp = z.strictObject({
  attributes: z.strictObject({ mention: ZMention, link: zMentionRef() }),
  insert: z.strictObject({ mentions: z.literal(true) }),
});
const ZImageOp = z.strictObject({ insert: z.strictObject({ image: zHttpUrl }) });

const ZCommentOp = z.union([ZTextOp, ZLinkOp, ZMentionOp, ZImageOp], {
  error: "must be one of {insert: text}, a link, a mention or an image op",
});
export type TCommentOp = z.output<typeof ZCommentOp>;

/** Ops: at least one; the size caps (413) are the service's. */
export const ZCommentOps = z.array(ZCommentOp).min(1, "a comment needs at least one op");

/** An optional boolean, as JSON or as the strings "true"/"false". */
const zFlag = z
  .union([z.boolean(), z.literal(["true", "false"])])
  .transform((v) => v === true || v === "true")
  .optional();

/**
 * A guest's name (guest commenting): 1 to 50 letters, digits, spaces, apostrophes, hyphens and
 * underscores, so it can carry no link or address; trimmed.
 */
export const ZGuestName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(/^[\p{L}\p{M}\p{N}' ’_-]+$/u, "may hold only letters, digits, spaces, apostrophes, hyphens and underscores");

/** POST .../pages/<b64>/comments.json */
export const ZCreateCommentBody = z.object({
  comment: z.object({
    body: z.object({
      ops: ZCommentOps,
      /** Guests: the solved captcha (server/engagement/captcha.ts). */
      captcha_response: z.string().max(4096).optional(),
      /** Guests: the name shown with the comment ("Guest" without one). */
      guest_name: ZGuestName.optional(),
    }),
    parent_comment_id: z.union([zWholeNumber({ min: 1, max: PG_INT_MAX }), z.null()]).optional(),
  }),
  confidential: zFlag,
  jwt: z.string().optional(),
  mobile: zFlag,
});
export type TCreateCommentBody = z.output<typeof ZCreateCommentBody>;

/** PUT .../pages/<b64>/comments/<id> */
export const ZEditCommentBody = z.object({
  comment: z.object({ ops: ZCommentOps }),
  jwt: z.string().optional(),
});

/** POST .../comments/<id>/hide */
export const ZHideCommentBody = z.object({ jwt: z.string().optional() });

/** Path of the page routes. */
export const ZPageParams = z.object({
  account_id: z.string(),
  encoded_url: z.string(),
});
export const ZCommentParams = ZPageParams.extend({ comment_id: zWholeNumber({ min: 1, max: PG_INT_MAX }) });

/** Sort orders: the names, and "desc"/"asc" as real clients send them (research/real-clients.md §7). */
const ZSortOrder = z
  .enum(["newest", "oldest", "most_reacted", "desc", "asc"])
  .transform((v) => (v === "desc" ? "newest" : v === "asc" ? "oldest" : v));
export type TSortOrder = "newest" | "oldest" | "most_reacted";

/** Top-level comments per page of the list: default and most (more is served as the most). */
const PARENT_COMMENTS_LIMIT = { default: 20, max: 100 };

/** GET .../pages/<b64>/comments.json */
export const ZListCommentsQuery = z.object({
  jwt: z.string().optional(),
  parent_comments_limit: zWholeNumber({ max: PG_INT_MAX })
    .default(PARENT_COMMENTS_LIMIT.default)
    .transform((n) => Math.min(n, PARENT_COMMENTS_LIMIT.max)),
  parent_comments_offset: zWholeNumber({ max: PG_INT_MAX }).default(0),
  sort_order: ZSortOrder.default("newest"),
  child_comments_sort_order: ZSortOrder.default("oldest"),
  /**
   * Opt-in: "first" adds `featured_comments` (the featured ones, newest featured first) and a
   * `featured` flag on each top-level comment. Without it the answer is as it always was.
   */
  featured: z.literal("first").optional(),
});
export type TListCommentsQuery = z.output<typeof ZListCommentsQuery>;

/** GET /api/v1/accounts/<id>/pages?page_ids=<b64>,<b64>… */
const PAGE_IDS_MAX = 100;
export const ZPageCountsQuery = z.object({
  page_ids: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).filter(Boolean))
    .pipe(
      z.array(z.string()).min(1, "give at least one page id").max(PAGE_IDS_MAX, `at most ${PAGE_IDS_MAX} page ids`),
    ),
});

export type TCommentAuthor = {
  id: number;
  name: string;
  avatar: string | null;
  slug: string;
  guest: boolean;
  bio: string;
  accounts: number[];
  /** An erased reader (docs/privacy.md "Erasure"): kept comments are shown as by a deleted reader. */
  erased?: true;
};

export type TCommentMention = { id: string; name: string; slug: string };

/** A comment as the API answers it (spec §2.1 Comment). */
export type TCommentWire = {
  id: number;
  comment_realm_id: number;
  page_id: number;
  body: { ops: TCommentOp[] };
  created_at: string;
  parent_comment_id: number | null;
  /**
   * Added to the spec's comment: the comment a reply answers. Replies nest one level, so a reply to
   * a reply is under that reply's top-level comment (parent_comment_id) and this names the reply it
   * answered; otherwise it equals parent_comment_id (null for a top-level comment).
   */
  reply_to_id: number | null;
  author_id: number;
  hidden_by_id: number | null;
  hidden_at: string | null;
  deleted_by_id: string | null;
  deleted_at: string | null;
  reactions: Record<string, number>;
  edited_at: string | null;
  is_spam: boolean;
  is_published: boolean;
  toxicity: number;
  page_url: string;
  hero_image_url: string | null;
  headline: string | null;
  hidden: boolean;
  deleted: boolean;
  realm_comment_count: number;
  is_page_author: boolean;
  author: TCommentAuthor | null;
  mentions: TCommentMention[];
  /**
   * The reaction ids the signed-in reader gave to this comment: present when the request named a
   * reader (a jwt on the list, the reader of a reaction call), absent otherwise.
   */
  my_reactions?: string[];
  /** In lists: the replies of a top-level comment. */
  replies?: TCommentWire[];
  /** Top-level comments of a list asked with `featured=first`: featured by a moderator. */
  featured?: boolean;
  /**
   * The signed-in reader's own comments in a list with a jwt: until when they may edit it (the
   * account's edit window), null when there is no limit.
   */
  editable_until?: string | null;
};

export type TCommentList = {
  total_count: number;
  comments: TCommentWire[];
  total_parent_comments_count: number;
  /** With `featured=first`: the page's featured top-level comments, with their replies. */
  featured_comments?: TCommentWire[];
  /** Q&A pages, with a jwt: the reader's own questions not answered yet (readers see answered ones only). */
  awaiting_answer?: TCommentWire[];
};
