/**
 * The posts and pages of a WordPress export (WXR 1.2, Tools → Export → All content), read as
 * ContentPosts, streaming (xml-stream.ts: one <item> in memory at a time, no entity resolved).
 *
 * - <channel>'s <wp:author>s (author_login, author_email, author_display_name) are the people;
 *   an item names its author by login (<dc:creator>). The first read keeps them, and each
 *   attachment's URL, caption (excerpt) and alt text (_wp_attachment_image_alt) by post id, for
 *   featured images (_thumbnail_id) and galleries ([gallery ids]): memory grows with the number
 *   of authors and attachments, never with the posts' text.
 * - An item is a story when its wp:post_type is post or page; attachments, menu items, revisions,
 *   blocks and other plugins' types are skipped, saying which.
 * - wp:status: publish → published at post_date_gmt; draft, pending → draft; future → scheduled
 *   at post_date_gmt; private → draft (said in the report: Masthead has no private stories);
 *   trash, auto-draft → skipped. A password-protected post (wp:post_password) → draft, said in
 *   the report: Masthead has no story passwords.
 * - <category domain="category"> → sections (the first the primary), domain="post_tag" → tags.
 * - Custom fields, subtitle, SEO fields and canonical URL: wxr-fields.ts (a field that cannot be
 *   kept is left out and said, never the post).
 * - Terms' and authors' slugs: term-slug.ts (any script kept).
 * - A post_date_gmt that is not a date: the post_date, else the import's time (said).
 * - Classic-editor posts (no <!-- wp: --> block comment) are read as wpautop text.
 */
import { createHash } from "node:crypto";

import { parseExportDate } from "../comments/records";
import { checkWxrVersion, WXR_SITE_ELEMENTS, WXR_VERSION_ELEMENT, wxrSite } from "../comments/wxr";
import { ImportFileError, type FileProblem, type ImportFile } from "../types";
import { child, childText, streamXml, type XmlNode } from "../xml-stream";
import type { ContentPerson, ContentPost, ContentStatus, ContentTerm } from "./records";
import type { AttachmentImage } from "./shortcodes";
import type { ContentFile } from "./source";
import { decodeSlug, termSlug } from "./term-slug";
import { postmeta, wxrCustomFields, wxrSeo } from "./wxr-fields";

type WxrIndex = {
  digest: string;
  /** The site the file's post ids belong to (its channel's blog URL), normalised; "" when none. */
  site: string;
  /** The channel's title (Yoast's and Rank Math's "sitename"). */
  siteName: string;
  problems: FileProblem[];
  authors: Map<string, ContentPerson>;
  attachments: Map<string, AttachmentImage>;
  /** The images attached to each post (an attachment's wp:post_parent), in the file's order. */
  attachedTo: Map<string, AttachmentImage[]>;
  items: number;
};

const CHANNEL_RECORDS = new Set<string>(["wp:author", "item", "title", WXR_VERSION_ELEMENT, ...WXR_SITE_ELEMENTS]);
const isRecord = (p: readonly string[]) => p.length === 3 && p[1] === "channel" && CHANNEL_RECORDS.has(p[2]!);

const wp = (node: XmlNode, name: string) => childText(node, `wp:${name}`) ?? "";

/**
 * What comment exports may name a post by besides its id: the Disqus plugin's thread id (post
 * meta dsq_thread_id) and every old slug WordPress kept (_wp_old_slug).
 */
function threadKeys(node: XmlNode): string[] {
  const keys: string[] = [];
  for (const c of node.children) {
    if (c.name !== "wp:postmeta") continue;
    const key = childText(c, "wp:meta_key");
    const value = (child(c, "wp:meta_value")?.text ?? "").trim();
    if (!value) continue;
    if (key === "dsq_thread_id" && /^\d+$/.test(value)) keys.push(`dsq:${value}`);
    if (key === "_wp_old_slug") keys.push(`slug:${decodeSlug(value)}`);
  }
  return keys;
}

function person(node: XmlNode): ContentPerson | null {
  const login = wp(node, "author_login");
  if (!login) return null;
  const name = wp(node, "author_display_name") || login;
  return {
    sourceId: login,
    name,
    slug: termSlug(name, login),
    email: wp(node, "author_email") || null,
  };
}

/** The first read: digest, people, attachments, problems (see the file's comment). */
async function indexWxr(file: ImportFile): Promise<WxrIndex> {
  const hash = createHash("sha256");
  const index: WxrIndex = {
    digest: "",
    site: "",
    siteName: "",
    problems: [],
    authors: new Map(),
    attachments: new Map(),
    attachedTo: new Map(),
    items: 0,
  };
  const siteElements = new Map<string, string>();
  let version: { text: string; line: number } | undefined;
  let firstItem: number | null = null;
  for await (const event of streamXml(file.path, { isRecord, structureDepth: 2, onBytes: (b) => hash.update(b) })) {
    if (event.type === "root" && event.name !== "rss") {
      throw new ImportFileError(`${file.name} is not a WordPress export (WXR): its root element is <${event.name}>.`);
    }
    if (event.type !== "record") continue;
    const { node } = event;
    if (node.name === WXR_VERSION_ELEMENT) {
      if (firstItem === null) version ??= { text: node.text.trim(), line: node.line };
      continue;
    }
    if (node.name === "item") firstItem ??= node.line;
    if (node.name !== "item" && node.name !== "wp:author") {
      if (!siteElements.has(node.name)) siteElements.set(node.name, node.text.trim());
      continue;
    }
    if (node.name === "wp:author") {
      const p = person(node);
      if (p) index.authors.set(p.sourceId, p);
      continue;
    }
    index.items++;
    if (wp(node, "post_type") === "attachment") {
      const url = wp(node, "attachment_url") || childText(node, "guid") || "";
      if (url) {
        const meta = postmeta(node);
        const image = {
          url,
          caption: childText(node, "excerpt:encoded") || null,
          alt: meta.get("_wp_attachment_image_alt")?.[0]?.trim() || null,
        };
        index.attachments.set(wp(node, "post_id"), image);
        const parent = wp(node, "post_parent");
        if (parent && parent !== "0") {
          const siblings = index.attachedTo.get(parent) ?? [];
          siblings.push(image);
          index.attachedTo.set(parent, siblings);
        }
      }
    }
  }
  checkWxrVersion(version, firstItem, file.path);
  index.digest = hash.digest("hex");
  index.site = wxrSite(siteElements);
  index.siteName = siteElements.get("title") ?? "";
  return index;
}

const STORY_TYPES = new Set(["post", "page"]);

function status(value: string): { status: ContentStatus; note?: string } | { skip: string } {
  switch (value) {
    case "publish":
      return { status: "published" };
    case "draft":
    case "pending":
      return { status: "draft" };
    case "future":
      return { status: "scheduled" };
    case "private":
      return { status: "draft", note: "private in WordPress: imported as a draft (Masthead has no private stories)" };
    case "trash":
      return { skip: "in the trash" };
    case "auto-draft":
      return { skip: "an auto-draft (never saved by its author)" };
    default:
      return { skip: `its status "${value || "(none)"}" is not a post's` };
  }
}

function terms(node: XmlNode, domain: string): ContentTerm[] {
  const seen = new Set<string>();
  return node.children.flatMap((c) => {
    if (c.name !== "category" || c.attrs.domain !== domain) return [];
    const name = c.text.trim();
    const slug = termSlug(name, c.attrs.nicename ?? "");
    if (!name || !slug || seen.has(slug)) return [];
    seen.add(slug);
    return [{ name, slug }];
  });
}

/** An <item> as a ContentPost (see the file's comment). */
function wxrPost(node: XmlNode, index: WxrIndex): ContentPost {
  const id = wp(node, "post_id");
  const type = wp(node, "post_type") || "post";
  const problems: string[] = [];
  if (!/^\d+$/.test(id)) problems.push("it has no wp:post_id");
  const state = status(wp(node, "status"));
  const gmt = parseExportDate(wp(node, "post_date_gmt"));
  // A draft's GMT date is WordPress's zero date: its local date is all there is (and all there is
  // when the GMT one is not a date).
  const date = gmt === null || gmt === "invalid" ? (parseExportDate(wp(node, "post_date")) ?? gmt) : gmt;
  const html = child(node, "content:encoded")?.text ?? "";
  const meta = postmeta(node);
  const thumbnail = meta.get("_thumbnail_id")?.[0]?.trim();
  const hero = thumbnail ? (index.attachments.get(thumbnail) ?? null) : null;
  const notes: string[] = [];
  // A date that cannot be read costs the date, not the story: it is dated at the import.
  if (gmt === "invalid") {
    const given = wp(node, "post_date_gmt").slice(0, 40);
    notes.push(
      `its post_date_gmt "${given}" is not a date: dated ${date instanceof Date ? "by its post_date" : "at the import"}`,
    );
  }
  if (thumbnail && !hero) notes.push(`its featured image (attachment ${thumbnail}) is not in the file`);
  if ("note" in state && state.note) notes.push(state.note);
  // Masthead has no password-protected stories: published, it would be readable by anyone.
  const protectedPost = wp(node, "post_password") !== "" && "status" in state && state.status !== "draft";
  if (protectedPost)
    notes.push("password-protected in WordPress: imported as a draft (Masthead has no story passwords)");
  const login = childText(node, "dc:creator") ?? "";
  const author =
    index.authors.get(login) ??
    (login ? { sourceId: login, name: login, slug: termSlug(login, login), email: null } : null);
  const custom = wxrCustomFields(meta);
  notes.push(...custom.notes);
  const title = childText(node, "title") ?? "";
  const excerpt = childText(node, "excerpt:encoded") || null;
  const sections = terms(node, "category");
  const skip = !STORY_TYPES.has(type)
    ? type === "attachment"
      ? "an attachment (its image is kept where a post uses it: featured image, gallery)"
      : `a ${type}, not a post or a page`
    : "skip" in state
      ? state.skip
      : null;
  return {
    sourceId: id,
    type,
    title,
    slug: wp(node, "post_name") ? decodeSlug(wp(node, "post_name")) : null,
    html,
    autop: !/<!--\s*wp:/.test(html),
    excerpt,
    ...wxrSeo(meta, { title, excerpt: excerpt ?? "", siteName: index.siteName, category: sections[0]?.name ?? "" }),
    status: "status" in state && !protectedPost ? state.status : "draft",
    date: date instanceof Date ? date : null,
    authors: author?.slug ? [author] : [],
    sections,
    tags: terms(node, "post_tag"),
    hero,
    metadata: custom.fields,
    access: "public",
    oldUrl: childText(node, "link") || null,
    threadKeys: threadKeys(node),
    commentsClosed: wp(node, "comment_status").trim().toLowerCase() === "closed",
    notes,
    skip,
    errors: problems,
    attachment: (attachmentId) => index.attachments.get(attachmentId),
    attached: () => index.attachedTo.get(id) ?? [],
    where: `line ${node.line}`,
  };
}

/** The second read: every <item>, in the file's order. */
async function* readWxrPosts(file: ImportFile, index: WxrIndex): AsyncGenerator<ContentPost> {
  for await (const event of streamXml(file.path, { isRecord, structureDepth: 2 })) {
    if (event.type === "record" && event.node.name === "item") {
      yield wxrPost(event.node, index);
    }
  }
}

/** A WXR file as the content source reads it. */
export async function openWxr(file: ImportFile): Promise<ContentFile> {
  const index = await indexWxr(file);
  return {
    digest: index.digest,
    site: index.site,
    problems: index.problems,
    count: index.items,
    posts: () => readWxrPosts(file, index),
  };
}
