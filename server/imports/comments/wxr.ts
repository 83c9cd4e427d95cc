/**
 * The comments of a WordPress export (WXR 1.2, Tools → Export): <rss><channel>, then one <item>
 * per post, page or attachment (its <title>, <link>, <wp:post_id>, …) holding its <wp:comment>s
 * (comment_id, comment_author, comment_author_email, comment_author_url, comment_date_gmt,
 * comment_content, comment_approved: 1, 0, spam or trash; comment_type; comment_parent;
 * comment_user_id). Read as CommentRecords, streaming: an item is a thread as soon as it has a
 * comment; the posts themselves are another source's (content imports).
 *
 * WordPress keeps a comment's text as typed, with newlines as line breaks; pingbacks and
 * trackbacks are skipped (they are not readers' comments), as are other plugins' comment types.
 *
 * Authors: a registered user (comment_user_id > 0) is an account ("wordpress", the user id); one
 * of the channel's <wp:author>s (author_id, author_login, author_email, author_display_name,
 * written before the items) is the site's staff, and the comment carries that person (WxrStaff).
 * A visitor (user id 0) is known by the e-mail they gave, if any (authors.ts).
 */
import { displayName } from "../limits";
import { ImportFileError, siteScope } from "../types";
import { childText, streamXml, type XmlNode } from "../xml-stream";
import {
  normaliseEmail,
  parseExportDate,
  type CommentPost,
  type CommentReader,
  type CommentRecord,
  type CommentThread,
  type SourceState,
  type StaffPerson,
} from "./records";

/** Comment types that are readers' comments ("" and "comment"; WooCommerce's reviews). */
const READER_TYPES = new Set(["", "comment", "review"]);

/** comment_approved as a state: 1 published, 0 held, spam, trash (and post-trashed) deleted; anything else held. */
export function wxrState(approved: string | undefined): SourceState {
  const value = (approved ?? "").trim().toLowerCase();
  if (value === "1" || value === "approve" || value === "approved") return "published";
  if (value === "spam") return "spam";
  if (value === "trash" || value === "post-trashed") return "deleted";
  return "held";
}

/**
 * The <channel> elements that name the site, best first: the blog's URL, the site's home, the
 * WordPress install's URL. The first present is the site the file's post ids belong to.
 */
export const WXR_SITE_ELEMENTS = ["wp:base_blog_url", "link", "wp:base_site_url"] as const;

/** The site of a WXR file from its channel's elements (WXR_SITE_ELEMENTS), normalised; "" when none. */
export function wxrSite(found: ReadonlyMap<string, string>): string {
  for (const name of WXR_SITE_ELEMENTS) {
    const site = siteScope(found.get(name));
    if (site) return site;
  }
  return "";
}

/** The channel's element naming the export's version. */
export const WXR_VERSION_ELEMENT = "wp:wxr_version";

/** The versions of WXR read: WordPress has written 1.0, 1.1 and 1.2, alike in what is read here. */
const WXR_VERSIONS = new Set(["1.0", "1.1", "1.2"]);

/**
 * Refuse (ImportFileError) a file whose <wp:wxr_version> is not one read, or that has none before
 * its first item (`at`: that item's line; null: the file has none). Every WordPress export names it.
 */
export function checkWxrVersion(
  version: { text: string; line: number } | undefined,
  at: number | null,
  path: string,
): void {
  if (version && WXR_VERSIONS.has(version.text)) return;
  const why = version
    ? `line ${version.line}: its <${WXR_VERSION_ELEMENT}> is "${version.text.slice(0, 40)}"`
    : at === null
      ? `it has no <${WXR_VERSION_ELEMENT}>`
      : `line ${at}: it has no <${WXR_VERSION_ELEMENT}> before its posts`;
  throw new ImportFileError(
    `${displayName(path)} is not a WordPress export this import reads: ${why} (versions 1.0 to 1.2 are read). Nothing of it is imported.`,
  );
}

const isSiteElement = (p: readonly string[]) =>
  p.length === 3 &&
  p[1] === "channel" &&
  (p[2] === WXR_VERSION_ELEMENT || (WXR_SITE_ELEMENTS as readonly string[]).includes(p[2]!));
const field = (node: XmlNode, name: string) => childText(node, `wp:${name}`);

const isStaffElement = (p: readonly string[]) => p.length === 3 && p[1] === "channel" && p[2] === "wp:author";

/**
 * The channel's <wp:author>s (a few: the people who wrote posts). WordPress.com exports and older
 * files have no <wp:author_id> (the theme unit test data's staff reply as user 24783058, listed by
 * login and e-mail only), so a comment's author is one of them by, in order: the comment's e-mail
 * (any comment: a visitor typing the staff address is that person, not a second one); the user id;
 * the login as the comment's name, for a registered user only (anybody can type "admin").
 */
class WxrStaff {
  private readonly byId = new Map<string, StaffPerson>();
  private readonly byEmail = new Map<string, StaffPerson>();
  private readonly byLogin = new Map<string, StaffPerson>();

  add(node: XmlNode): void {
    const login = field(node, "author_login")?.trim() ?? "";
    if (!login) return;
    const email = field(node, "author_email")?.trim() || null;
    const person = { login, name: field(node, "author_display_name")?.trim() || null, email };
    const id = field(node, "author_id")?.trim() ?? "";
    if (/^\d+$/.test(id) && id !== "0" && !this.byId.has(id)) this.byId.set(id, person);
    const key = normaliseEmail(email);
    if (key && !this.byEmail.has(key)) this.byEmail.set(key, person);
    if (!this.byLogin.has(login.toLowerCase())) this.byLogin.set(login.toLowerCase(), person);
  }

  /** The staff person a comment's author is, or null. */
  find(userId: string | null, email: string | null, name: string | null): StaffPerson | null {
    const key = normaliseEmail(email);
    const byEmail = key ? this.byEmail.get(key) : undefined;
    if (byEmail) return byEmail;
    if (userId === null) return null;
    return this.byId.get(userId) ?? (name ? this.byLogin.get(name.trim().toLowerCase()) : undefined) ?? null;
  }
}

/** The item being read: its fields as they came (WordPress writes them before its comments). */
type WxrItem = {
  postId: string | null;
  link: string | null;
  title: string | null;
  closed: boolean;
  /** The post's author (<dc:creator>: a <wp:author>'s login). */
  creator: string | null;
  line: number;
};

function wxrThread(item: WxrItem): CommentThread | null {
  if (!item.postId) return null;
  return {
    sourceId: item.postId,
    url: item.link,
    title: item.title,
    createdAt: null,
    line: item.line,
    identifier: item.postId,
    closed: item.closed,
  };
}

const sameLogin = (a: string | null | undefined, b: string | null): boolean =>
  !!a?.trim() && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/** A <wp:comment> of `item` as a post. */
function wxrComment(node: XmlNode, item: WxrItem, staff: WxrStaff): CommentPost {
  const problems: string[] = [];
  const id = field(node, "comment_id") ?? "";
  if (!/^\d+$/.test(id)) problems.push("it has no comment_id");
  let created = parseExportDate(field(node, "comment_date_gmt"));
  // An unapproved comment's GMT date may be WordPress's zero date: its local date is all there is.
  if (created === null) created = parseExportDate(field(node, "comment_date"));
  if (created === "invalid") problems.push("its comment_date_gmt is not a date");
  const type = (field(node, "comment_type") ?? "").toLowerCase();
  const parent = field(node, "comment_parent") ?? "0";
  const userId = (field(node, "comment_user_id") ?? "0").trim();
  const registered = /^\d+$/.test(userId) && userId !== "0";
  const state = wxrState(field(node, "comment_approved"));
  const name = field(node, "comment_author") || null;
  const email = field(node, "comment_author_email") || null;
  const person = staff.find(registered ? userId : null, email, name);
  return {
    sourceId: id,
    threadId: item.postId,
    parentId: /^\d+$/.test(parent) && parent !== "0" ? parent : null,
    createdAt: created instanceof Date ? created : null,
    html: node.children.find((c) => c.name === "wp:comment_content")?.text ?? "",
    newlines: "text",
    state,
    spam: state === "spam",
    author: {
      name,
      email,
      accountId: registered ? userId : null,
      // A visitor is no account, but is known by the e-mail they gave (authors.ts).
      anonymous: false,
      staff: person,
    },
    // WordPress marks a comment by the post's own author (its "bypostauthor"): a signed-in user, the
    // post's author (by the login of their <wp:author>, or by their name where the file lists no
    // staff, as WXR 1.0 files do); a visitor who typed that person's address is not marked.
    pageAuthor: registered && sameLogin(person?.login ?? name, item.creator),
    skip: READER_TYPES.has(type) ? null : `a ${type}, not a reader's comment`,
    errors: problems,
    line: node.line,
  };
}

/** The <item> elements read: its fields (written before its comments), then each comment. */
const ITEM_RECORDS = new Set(["title", "link", "dc:creator", "wp:post_id", "wp:comment_status", "wp:comment"]);

async function* readWxr(path: string, onBytes: (bytes: Buffer) => void): AsyncGenerator<CommentRecord> {
  const events = streamXml(path, {
    isRecord: (p) =>
      isSiteElement(p) || isStaffElement(p) || (p.length === 4 && p[2] === "item" && ITEM_RECORDS.has(p[3]!)),
    structureDepth: 3,
    onBytes,
  });
  let item: WxrItem | null = null;
  let threadSent = false;
  // WordPress writes the channel's site elements before the first item.
  const siteElements = new Map<string, string>();
  // …and its <wp:author>s.
  const staff = new WxrStaff();
  let version: { text: string; line: number } | undefined;
  let siteSent = false;
  for await (const event of events) {
    if (event.type === "record" && event.node.name === "wp:author") {
      staff.add(event.node);
      continue;
    }
    if (event.type === "record" && !item && !siteSent) {
      const text = event.node.text.trim();
      if (event.node.name === WXR_VERSION_ELEMENT) version ??= { text, line: event.node.line };
      else siteElements.set(event.node.name, text);
      continue;
    }
    if (!siteSent && event.type === "open" && event.depth === 3 && event.name === "item") {
      checkWxrVersion(version, event.line, path);
      siteSent = true;
      const site = wxrSite(siteElements);
      if (site) yield { type: "site", site };
    }
    if (event.type === "root") yield { type: "root", name: event.name };
    else if (event.type === "open" && event.depth === 3 && event.name === "item") {
      item = { postId: null, link: null, title: null, closed: false, creator: null, line: event.line };
      threadSent = false;
    } else if (event.type === "close" && event.depth === 3 && event.name === "item") {
      item = null;
    } else if (event.type === "record" && item) {
      const { node } = event;
      const text = node.text.trim() || null;
      if (node.name === "title") item.title = text;
      else if (node.name === "link") item.link = text;
      else if (node.name === "dc:creator") item.creator = text;
      else if (node.name === "wp:post_id") item.postId = text;
      else if (node.name === "wp:comment_status") item.closed = text?.toLowerCase() === "closed";
      else {
        if (!threadSent) {
          threadSent = true;
          const thread = wxrThread(item);
          if (thread) yield { type: "thread", thread };
        }
        yield { type: "post", post: wxrComment(node, item, staff) };
      }
    }
  }
  if (!siteSent) checkWxrVersion(version, null, path);
}

export const WXR_READER: CommentReader = {
  provider: "wordpress",
  root: "rss",
  title: "a WordPress export (WXR)",
  read: readWxr,
};
