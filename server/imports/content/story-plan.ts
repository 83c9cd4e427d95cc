/**
 * One imported post as a Masthead story (docs/migration.md, "WordPress content", "Ghost
 * content"): planned from a ContentPost, whatever system wrote it, and written quietly (no
 * webhook event, no e-mail, no per-story audit entry: the run's import.started/finished say who
 * imported what).
 *
 * - Body: html-to-elements.ts, then the editor's own save path (normalizeCards: the allow-list,
 *   the URL rule, embeds' ids); elements in cards of at most 200.
 * - Images stay at their URLs (the hero image's key and each image element's `image-s3-key` is
 *   the URL), so their hosts must be among the account's external image hosts (Settings → Images and logo); a post
 *   with an image elsewhere is refused, naming the host, and imports once it is added.
 * - Slug: the post's own (or its title's), made free with "-2", "-3"… when another story has it.
 * - Status: published at its date (first, last published then too); draft; scheduled: approved
 *   with its time and the "story.publish" job (scheduling.ts), unless the time is past, when it
 *   is published at it.
 * - A published story's old URL's path becomes a custom URL: a 301 redirect to "/<slug>"
 *   (custom-urls.ts), unless that path is already one, or is the story's own. A draft's or a
 *   scheduled post's address was never public: none.
 * - Recorded as kind "story" (import_records): a second run skips it; what comment exports may
 *   name it by (its old address, a Disqus thread id, old slugs) as kind "thread-key"
 *   (comments/story-match.ts).
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { getEnv } from "../../../env.js";
import { formatInstant } from "../../dates.schema";
import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { enqueueJob } from "../../jobs/queue";
import type { TCard, TStoryElement } from "../../publishing/cards.schema";
import { emitStoryEvent } from "../../publishing/editorial/events";
import {
  EXTERNAL_IMAGE_HOSTS_SETTING,
  isAllowedExternalImage,
  type ImageRef,
} from "../../publishing/editorial/image-refs";
import { cleanHtml } from "../../publishing/editorial/sanitize";
import { publishScheduledStoryJob } from "../../publishing/editorial/scheduling";
import { normalizeCards } from "../../publishing/editorial/stories/cards";
import { generateSlug, storyImageRefs } from "../../publishing/editorial/stories/fields";
import { scheduledPublicationKey } from "../../publishing/editorial/stories/moves";
import { cardsPlainText, readTimeMinutes } from "../../publishing/story-view";
import { graphemePrefix } from "../../text/graphemes";
import { slugify } from "../../text/slug";
import { recordThreadKeys, storyThreadKeys } from "../comments/story-match";
import type { ImportContext, ItemPlan, PlanEffect } from "../types";
import { planCommentPage } from "./comment-pages";
import { htmlToElements, htmlToPlainText } from "./html-to-elements";
import type { ContentPost } from "./records";
import { keptMetadata, storySeoFields } from "./story-fields";
import { decodeSlug } from "./term-slug";
import { planTerm, type PlannedTerm, type TermKind } from "./terms";

export const STORY_KIND = "story";
export const REDIRECT_KIND = "redirect";

const ELEMENTS_PER_CARD = 200;
const SLUG_MAX = 200;

const refuse = (reason: string): ItemPlan => ({ action: "refuse", reason });

/** Elements as cards of at most ELEMENTS_PER_CARD. */
function elementsToCards(elements: readonly TStoryElement[]): TCard[] {
  const cards: TCard[] = [];
  for (let i = 0; i < elements.length; i += ELEMENTS_PER_CARD) {
    cards.push({
      id: randomUUID(),
      status: "draft",
      version: 1,
      metadata: {},
      "story-elements": elements.slice(i, i + ELEMENTS_PER_CARD),
    });
  }
  return cards;
}

const detailsOf = (error: AppError) =>
  (error.details ?? [])
    .map((d) => `${d.field} ${d.issue}`)
    .slice(0, 3)
    .join("; ") || error.message;

/** The path of an old address, as a custom URL's source path (no trailing slash), or null. */
function oldPath(url: string | null): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    path = parsed.pathname;
  }
  path = path.replace(/\/+$/, "");
  return path === "" ? null : path;
}

const ELEMENT_FIELD = /^cards\.(\d+)\.story-elements\.(\d+)(?:\.|$)/;

/** The elements (by their place in the body) the save path refused, with why. */
function refusedElements(error: AppError): Map<number, string> {
  const refused = new Map<number, string>();
  for (const d of error.details ?? []) {
    const m = ELEMENT_FIELD.exec(d.field);
    if (!m) continue;
    const at = Number(m[1]) * ELEMENTS_PER_CARD + Number(m[2]);
    if (!refused.has(at)) refused.set(at, `${d.field.replace(ELEMENT_FIELD, "")} ${d.issue}`.trim());
  }
  return refused;
}

/**
 * The story's cards and its paywall split point (the elements of the free part, when the post has
 * a locked part); or why the post cannot be a story. An element the editor's save path refuses
 * (a link that fails the URL rule) is left out and said, once: the rest of the body is kept.
 */
function storyBody(
  post: ContentPost,
  now: Date,
  note: (message: string) => void,
): { cards: TCard[]; paywallAt: number | null } | { refuse: string } {
  const unknownShortcodes = new Set<string>();
  const read = (html: string) =>
    htmlToElements(html, {
      autop: post.autop,
      attachment: post.attachment,
      attached: post.attached,
      unknownShortcodes,
    });
  const free = post.elements ?? read(post.html);
  const locked = typeof post.lockedHtml === "string";
  let elements = locked ? [...free, ...read(post.lockedHtml!)] : free;
  /** Whether each element kept is of the free part. */
  let isFree = elements.map((_, i) => i < free.length);
  if (unknownShortcodes.size > 0)
    note(`shortcodes left out, their text kept: ${[...unknownShortcodes].map((n) => `[${n}]`).join(", ")}`);
  if (elements.length > ELEMENTS_PER_CARD * 500) return { refuse: "its body has more blocks than a story holds" };
  for (let attempt = 0; ; attempt++) {
    try {
      const cards = normalizeCards(elementsToCards(elements), [], now);
      return { cards, paywallAt: locked ? isFree.filter(Boolean).length : null };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const refused = refusedElements(error);
      if (attempt > 0 || refused.size === 0) return { refuse: `its body cannot be a story: ${detailsOf(error)}` };
      for (const [at, why] of refused) note(`left out of its body: a ${elements[at]?.type ?? "?"} block (${why})`);
      elements = elements.filter((_, i) => !refused.has(i));
      isFree = isFree.filter((_, i) => !refused.has(i));
    }
  }
}

/**
 * The account's external image hosts (image-refs.ts), read once per run: every image an import
 * sets is a URL (html-to-elements.ts keeps only http(s) ones), so each must be on one of them.
 */
export class ImageHosts {
  private hosts: string[] | null = null;

  /** The hosts of `refs` the account does not allow, each with its first URL (none: all allowed). */
  async refused(db: Db, accountId: number, refs: readonly ImageRef[]): Promise<Map<string, string>> {
    if (refs.length === 0) return new Map();
    if (this.hosts === null) {
      const config = await db.publisherConfig.findUnique({ where: { accountId }, select: { settings: true } });
      const settings = config?.settings as Record<string, unknown> | null | undefined;
      const hosts = settings && !Array.isArray(settings) ? settings[EXTERNAL_IMAGE_HOSTS_SETTING] : undefined;
      this.hosts = Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === "string") : [];
    }
    const refused = new Map<string, string>();
    for (const ref of refs) {
      if (isAllowedExternalImage(ref.key, this.hosts)) continue;
      let host: string;
      try {
        host = new URL(ref.key).hostname;
      } catch {
        host = ref.key.slice(0, 100);
      }
      if (!refused.has(host)) refused.set(host, ref.key.slice(0, 300));
    }
    return refused;
  }
}

type Planned = { label: TermKind; planned: PlannedTerm };

/** The post's authors, sections and tags, once each by slug (an export may name one twice). */
async function planStoryTerms(db: Db, ctx: ImportContext, post: ContentPost): Promise<Planned[]> {
  const terms: Planned[] = [];
  for (const [label, list] of [
    ["author", post.authors],
    ["section", post.sections],
    ["tag", post.tags],
  ] as const) {
    const seen = new Set<string>();
    for (const term of list) {
      if (seen.has(term.slug)) continue;
      seen.add(term.slug);
      terms.push({ label, planned: await planTerm(db, ctx, label, term) });
    }
  }
  if (post.authors.length === 0) ctx.note(`${post.type} ${post.sourceId} has no author`);
  return terms;
}

/**
 * The redirect from the post's old URL to the story, or null. Only a published story's old URL
 * was public: a draft's or a scheduled post's is not redirected; a path that is a custom URL
 * already is left as it is.
 */
async function planRedirect(
  db: Db,
  ctx: ImportContext,
  args: { post: ContentPost; published: boolean; destination: string },
): Promise<string | null> {
  const { post, destination } = args;
  const path = args.published ? oldPath(post.oldUrl) : null;
  const taken =
    path !== null &&
    path !== destination &&
    (await db.customUrl.findUnique({
      where: { accountId_sourcePath: { accountId: ctx.accountId, sourcePath: path } },
      select: { id: true },
    })) !== null;
  if (taken) ctx.note(`${post.type} ${post.sourceId}: ${path} is a custom URL already: left as it is`);
  return path !== null && path !== destination && !taken ? path : null;
}

/** Plan one post (see the file's comment). */
export async function planStory(
  db: Db,
  post: ContentPost,
  ctx: ImportContext,
  options: { commentsSource?: string; imageHosts?: ImageHosts } = {},
): Promise<ItemPlan> {
  if (post.skip) return { action: "skip", reason: post.skip };
  if (post.errors.length > 0) return refuse(post.errors.join("; "));
  const key = { kind: STORY_KIND, sourceId: post.sourceId };
  const known = await ctx.lookup(db, key);
  if (known !== null) return { action: "skip", reason: `imported before (story ${known})` };

  // Headline and summary are plain text, as the editor saves them.
  const headline = graphemePrefix(htmlToPlainText(post.title), 500) || "(untitled)";
  if (headline === "(untitled)") ctx.note(`${post.type} ${post.sourceId} has no title: imported as "(untitled)"`);
  for (const note of post.notes) ctx.note(`${post.type} ${post.sourceId}: ${note}`);
  // Each field on its own: one that cannot be kept is reported and left out, never the story.
  const noteField = (message: string) => ctx.note(`${post.type} ${post.sourceId}: ${message}`);
  const body = storyBody(post, ctx.now, noteField);
  if ("refuse" in body) return refuse(body.refuse);
  const hero = post.hero && /^https?:\/\//i.test(post.hero.url) ? post.hero : null;
  if (post.hero && !hero)
    ctx.note(
      `${post.type} ${post.sourceId}: its featured image ${post.hero.url.slice(0, 300)} is not a web address: left out`,
    );
  const refs = storyImageRefs({ heroImage: hero ? { s3Key: hero.url } : null, cards: body.cards });
  const refusedHosts = await (options.imageHosts ?? new ImageHosts()).refused(db, ctx.accountId, refs);
  if (refusedHosts.size > 0) {
    return refuse(
      `its images are on ${[...refusedHosts.keys()].join(", ")}, not among the account's external image hosts: add them under Settings → Images and logo → External image hosts and run the import again (${[...refusedHosts.values()].join(", ")})`,
    );
  }

  const metadata = {
    ...keptMetadata(post.metadata, noteField),
    "imported-from": ctx.source,
    "source-type": post.type,
  };
  const fields = storySeoFields(post, noteField);

  // WordPress writes a slug in another script percent-encoded ("%e0%a4%ad…"): read as the text it encodes.
  const base =
    slugify(decodeSlug(post.slug ?? ""), SLUG_MAX) || slugify(post.title, SLUG_MAX) || `story-${post.sourceId}`;
  const slug = await generateSlug(db, ctx.accountId, base);
  if (slug !== base) ctx.note(`${post.type} ${post.sourceId}: its slug "${base}" is taken: "${slug}"`);

  const terms = await planStoryTerms(db, ctx, post);

  const date = post.date ?? ctx.now;
  // The report is read by staff: times in the account's zone, named.
  const when = (d: Date) => formatInstant(d, ctx.publisher.timeZone);
  const scheduled = post.status === "scheduled" && date > ctx.now;
  const status = post.status === "draft" ? "DRAFT" : scheduled ? "APPROVED" : "PUBLISHED";
  if (post.status === "scheduled" && !scheduled)
    ctx.note(`${post.type} ${post.sourceId} was scheduled for ${when(date)}, which is past: published at it`);
  const what = status === "PUBLISHED" ? `published ${when(date)}` : scheduled ? `scheduled for ${when(date)}` : "draft";

  const destination = `/${slug}`;
  const redirect = await planRedirect(db, ctx, { post, published: status === "PUBLISHED", destination });
  const effects: PlanEffect[] = terms.flatMap((t) => t.planned.effects);
  if (redirect) effects.push({ kind: REDIRECT_KIND, action: "create", label: `${redirect} → ${destination}` });
  const commentPage = options.commentsSource
    ? await planCommentPage(db, ctx, {
        commentsSource: options.commentsSource,
        postId: post.sourceId,
        slug,
        headline,
        createdAt: date,
        label: `${post.type} ${post.sourceId}`,
        closed: post.commentsClosed,
      })
    : null;
  if (commentPage) effects.push(...commentPage.effects);

  return {
    action: "create",
    reason: `story /${slug} "${headline}", ${what}, ${post.access}`,
    effects,
    remember: [key, ...terms.flatMap((t) => t.planned.remember)],
    apply: async (tx: TransactionClient) => {
      const ids = { author: [] as number[], section: [] as number[], tag: [] as number[] };
      for (const t of terms) ids[t.label].push(await t.planned.resolve(tx));
      const plainText = cardsPlainText(body.cards);
      const story = await tx.story.create({
        data: {
          accountId: ctx.accountId,
          headline,
          slug,
          summary: post.excerpt ? graphemePrefix(htmlToPlainText(post.excerpt), 2_000) || null : null,
          subheadline: fields.subheadline,
          seo: fields.seo as Prisma.InputJsonObject,
          canonicalUrl: fields.canonicalUrl,
          status,
          cards: body.cards as unknown as Prisma.InputJsonValue,
          plainText,
          readTime: readTimeMinutes(plainText),
          metadata,
          access: post.access,
          accessLevelValue: post.accessLevelValue ?? null,
          paywallAt: body.paywallAt,
          heroImageS3Key: hero?.url ?? null,
          heroImageCaption: hero?.caption ? cleanHtml(hero.caption) : null,
          heroImageMetadata: hero?.alt ? { alt: cleanHtml(hero.alt) } : undefined,
          // Two sites' post 10 are two stories: the site is part of the id when the run has one.
          externalId: ctx.site ? `${ctx.source}:${ctx.site}:${post.sourceId}` : `${ctx.source}:${post.sourceId}`,
          publishAt: scheduled ? date : null,
          publishedAt: status === "PUBLISHED" ? date : null,
          firstPublishedAt: status === "PUBLISHED" ? date : null,
          lastPublishedAt: status === "PUBLISHED" ? date : null,
          createdAt: date,
          updatedAt: ctx.now,
          sections: { create: [...new Set(ids.section)].map((sectionId, position) => ({ sectionId, position })) },
          authors: { create: [...new Set(ids.author)].map((authorId, position) => ({ authorId, position })) },
          tags: { create: [...new Set(ids.tag)].map((tagId, position) => ({ tagId, position })) },
        },
        select: { id: true },
      });
      if (scheduled) {
        await enqueueJob(
          tx,
          publishScheduledStoryJob,
          { storyId: story.id, publishAt: date.toISOString() },
          {
            key: scheduledPublicationKey(story.id),
            onConflict: "replace",
            runAt: date,
            accountId: ctx.accountId,
            now: ctx.now,
          },
        );
      }
      if (redirect) {
        await tx.customUrl.create({
          data: {
            accountId: ctx.accountId,
            sourcePath: redirect,
            type: "redirect",
            statusCode: 301,
            destinationPath: destination,
            metadata: { "imported-from": ctx.source, "story-id": story.id },
          },
        });
      }
      await commentPage?.apply(tx);
      await recordThreadKeys(tx, ctx, story.id, storyThreadKeys(post.oldUrl, post.threadKeys));
      // --announce: a published story's "story-publish" webhook, as the workflow's Publish sends it
      // (a scheduled one sends its own when the story.publish job publishes it, announced or not).
      if (ctx.announce && status === "PUBLISHED") {
        await emitStoryEvent(tx, {
          actor: ctx.actor,
          storyId: story.id,
          name: "story-publish",
          previousStatus: "APPROVED",
          now: ctx.now,
          appUrl: getEnv().APP_URL,
        });
      }
      await ctx.record(tx, { ...key, targetId: story.id, created: true });
    },
  };
}
