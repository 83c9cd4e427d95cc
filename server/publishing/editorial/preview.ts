/**
 * Private previews of a story as readers will see it, whatever its status: a plain article view
 * (GET /preview/<token>) and the AMP page (GET /preview/<token>/amp), both rendered from the
 * story's current saved state by the functions the published story goes through (the feeds' HTML
 * renderer; ampStoryHtml). The token (./preview-token.ts) is the only key: no sign-in, so a
 * colleague or a source can check a draft. Answers are never cached and never indexed.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import { formatInstant } from "../../dates.schema";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { escapeXml } from "../../text/xml";
import { parseInput } from "../../validation";
import type { TCard } from "../cards.schema";
import { ampStoryHtml, ampWords } from "../feeds/amp";
import { heroImage, renderCards, type FeedContext } from "../feeds/content";
import { HTML_RENDERER, readMoreHtml } from "../feeds/rss";
import { paywallPointOf, splitAtPaywall, type PaywallSplit } from "../paywall-point";
import { getPublisher } from "../publisher";
import {
  STORY_INCLUDE,
  storyToWire,
  type StoryViewContext,
  type StoryWithRelations,
  type WireStory,
} from "../story-view";
import { fillPreviewUrl } from "./authorship.schema";
import { signPreviewToken, verifyPreviewToken } from "./preview-token";
import { PREVIEW_TTL_MS, ZPreviewLinkInput } from "./revisions.schema";

/** A preview link for one of the actor's stories, working for PREVIEW_TTL_MS from `now`. */
export async function createPreviewLink(
  db: Db,
  args: { actor: Actor; storyId: string; now: Date; appUrl: string },
): Promise<{ url: string; ampUrl: string; frontEndUrl: string | null; expiresAt: Date }> {
  const { storyId } = parseInput(ZPreviewLinkInput, { storyId: args.storyId });
  const story = await db.story.findFirst({
    where: { id: storyId, accountId: args.actor.accountId },
    select: { id: true, slug: true, account: { select: { previewUrl: true } } },
  });
  if (!story) throw new AppError("NOT_FOUND", "Story not found.");
  const expiresAt = new Date(args.now.getTime() + PREVIEW_TTL_MS);
  const token = signPreviewToken(story.id, expiresAt);
  const base = `${args.appUrl.replace(/\/+$/, "")}/preview/${token}`;
  const template = story.account.previewUrl;
  const frontEndUrl = template ? fillPreviewUrl(template, { token, slug: story.slug }) : null;
  return { url: base, ampUrl: `${base}/amp`, frontEndUrl, expiresAt };
}

/**
 * The story a preview token names, for the publication's front end (GET /api/v1/preview/<token>
 * with the account's content API key): its current saved state in the content API's shape,
 * whatever its status. A forged token or another account's story is NOT_FOUND, an expired one GONE.
 */
export async function getPreviewStory(
  db: Db,
  args: { ctx: { accountId: number; view: StoryViewContext }; token: string; now: Date },
): Promise<WireStory> {
  const check = verifyPreviewToken(args.token, args.now);
  if (!check.ok) {
    if (check.reason === "expired")
      throw new AppError("GONE", "This preview token has expired: preview links work for 24 hours.");
    throw new AppError("NOT_FOUND", "No such preview: the token is not valid.");
  }
  const story = await db.story.findFirst({
    where: { id: check.storyId, accountId: args.ctx.accountId },
    include: STORY_INCLUDE,
  });
  if (!story) throw new AppError("NOT_FOUND", "No such preview: the story no longer exists.");
  return storyToWire(story, args.ctx.view);
}

/** Headers of every preview answer, good or bad: private, uncached, unindexed. */
export const PREVIEW_HEADERS: Record<string, string> = {
  "Cache-Control": "private, no-store, max-age=0",
  "X-Robots-Tag": "noindex, nofollow, noarchive",
  "Referrer-Policy": "no-referrer",
};

/** The plain view runs no script at all; images and YouTube frames from anywhere over https. */
const ARTICLE_CSP =
  "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-src https://www.youtube.com; base-uri 'none'; form-action 'none'";

type PreviewAnswer = { status: number; contentType: string; html: string; headers: Record<string, string> };

function page(status: number, title: string, message: string): PreviewAnswer {
  return {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...PREVIEW_HEADERS, "Content-Security-Policy": ARTICLE_CSP },
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeXml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem"><h1>${escapeXml(title)}</h1><p>${escapeXml(message)}</p></body></html>`,
  };
}

/** What the banner says the story is: a published story is public, anything else is not yet. */
function previewStatusLine(story: Pick<StoryWithRelations, "status" | "version">, publication: string): string {
  const of = `(version ${story.version}) of ${escapeXml(publication)}`;
  if (story.status === "PUBLISHED") return `Preview of a published story ${of}: readers see this version.`;
  return `Preview of a ${escapeXml(story.status.toLowerCase())} story ${of}: not public.`;
}

/** Whose view of a closed story the preview shows: a reader without access, or one with it (the default). */
export const PREVIEW_AS = ["reader", "subscriber"] as const;
type PreviewAs = (typeof PREVIEW_AS)[number];

/**
 * The story's body for `as`. A closed story (login or subscription) has a paywall point
 * (../paywall-point.ts): without access, its free part and the line readers get where it continues;
 * with access, all of it with the divider drawn where the free part ends. Above, a switch between
 * the two (links: the page runs no script). A public story is the whole story, no switch.
 */
function previewBody(
  story: StoryWithRelations,
  ctx: FeedContext,
  as: PreviewAs,
  accountDefault: number,
): { switcher: string; body: string } {
  const cards = story.cards as unknown as TCard[];
  const point = paywallPointOf(story, accountDefault);
  if (point === null) return { switcher: "", body: renderCards(cards, HTML_RENDERER, ctx) };
  const split: PaywallSplit = splitAtPaywall(cards, point);
  const withAccess = story.access === "login" ? "As a signed-in reader" : "As a subscriber";
  const link = (value: PreviewAs, text: string) =>
    `<a href="?as=${value}"${value === as ? ' aria-current="page"' : ""} data-testid="preview-as-${value}">${escapeXml(text)}</a>`;
  const free = `${split.freeElements} of ${split.totalElements} ${split.totalElements === 1 ? "element" : "elements"} free`;
  const own = story.paywallAt === null ? `the account's default, ${accountDefault}` : "set for this story";
  const switcher = [
    `<nav class="preview-as" aria-label="Preview as">${link("reader", "As a reader without access")} · ${link("subscriber", withAccess)}</nav>`,
    `<p class="preview-note" data-testid="preview-paywall-note">Paywall point: ${escapeXml(free)} (${escapeXml(own)}).</p>`,
  ].join("\n");
  const parts = [renderCards(split.free, HTML_RENDERER, ctx)];
  if (as === "reader") {
    if (split.continues) parts.push(`<div data-testid="paywall-continues">${readMoreHtml(story, ctx)}</div>`);
  } else {
    const below = story.access === "login" ? "for signed-in readers below" : "for subscribers below";
    parts.push(
      `<div class="paywall-line" role="separator" aria-label="Paywall: free above, ${below}" data-testid="paywall-line">Free above · ${below}</div>`,
      renderCards(split.paid, HTML_RENDERER, ctx),
    );
  }
  return { switcher, body: parts.filter(Boolean).join("\n") };
}

/** The draft as a plain article: a banner saying it is a preview, then the story as readers get it. */
export function articlePreviewHtml(
  story: StoryWithRelations,
  ctx: FeedContext,
  expiresAt: Date,
  // Without a view: as a subscriber, with the accounts' default point as the database sets it.
  view: { as: PreviewAs; accountDefault: number } = { as: "subscriber", accountDefault: 1 },
): string {
  const hero = heroImage(story, ctx);
  const byline = story.authors.map((a) => a.author.name).join(", ");
  const { switcher, body } = previewBody(story, ctx, view.as, view.accountDefault);
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    `<meta name="robots" content="noindex, nofollow">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeXml(`Preview: ${story.headline}`)}</title>`,
    `<style>body{font-family:Georgia,serif;line-height:1.6;max-width:42rem;margin:0 auto;padding:1rem;color:#111}img,iframe{max-width:100%;height:auto}.preview-banner{font-family:system-ui,sans-serif;font-size:.875rem;background:#fef3c7;border:1px solid #f59e0b;padding:.5rem .75rem;border-radius:.25rem}figcaption{font-size:.875rem;color:#555}.preview-as,.preview-note{font-family:system-ui,sans-serif;font-size:.875rem}.preview-as a[aria-current]{font-weight:700;color:#111}.paywall-line{font-family:system-ui,sans-serif;font-size:.8125rem;font-weight:600;color:#78350f;text-align:center;border-block-start:2px dashed #d97706;padding-block-start:.25rem;margin-block:1.5rem}</style>`,
    `</head><body>`,
    `<p class="preview-banner" data-testid="preview-banner">${previewStatusLine(story, ctx.publisher.name)} This link stops working at ${escapeXml(formatInstant(expiresAt, ctx.publisher.timeZone))}.</p>`,
    switcher,
    `<article>`,
    `<h1>${escapeXml(story.headline)}</h1>`,
    story.subheadline ? `<p class="subheadline"><em>${escapeXml(story.subheadline)}</em></p>` : "",
    byline ? `<p class="byline">By ${escapeXml(byline)}</p>` : "",
    hero ? HTML_RENDERER.image(hero) : "",
    body,
    `</article></body></html>`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The answer to GET /preview/<token>[/amp] at `now`: 404 for a malformed or forged token (or a
 * story deleted since), 410 for an expired one, else the story's current saved state.
 */
export async function renderPreview(
  db: Db,
  args: { token: string; format: "article" | "amp"; now: Date; appUrl: string; as?: PreviewAs },
): Promise<PreviewAnswer> {
  const check = verifyPreviewToken(args.token, args.now);
  if (!check.ok) {
    return check.reason === "expired"
      ? page(410, "This preview link has expired", "Ask the editor for a new link: preview links work for 24 hours.")
      : page(404, "No such preview", "This preview link is not valid. Check that it was copied completely.");
  }
  const story = await db.story.findUnique({ where: { id: check.storyId }, include: STORY_INCLUDE });
  if (!story) return page(404, "No such preview", "The story of this preview link no longer exists.");
  const publisher = await getPublisher(db, story.accountId, { appUrl: args.appUrl });
  const ctx: FeedContext = { publisher, appUrl: args.appUrl };
  if (args.format === "amp") {
    return {
      status: 200,
      contentType: "text/html; charset=utf-8",
      headers: PREVIEW_HEADERS,
      // AMP wants the charset first in <head>: the robots tag goes right after it.
      html: ampStoryHtml(story, ctx, await ampWords(db, story.accountId)).replace(
        '<meta charset="utf-8">',
        '<meta charset="utf-8">\n<meta name="robots" content="noindex, nofollow">',
      ),
    };
  }
  return {
    status: 200,
    contentType: "text/html; charset=utf-8",
    headers: { ...PREVIEW_HEADERS, "Content-Security-Policy": ARTICLE_CSP },
    html: articlePreviewHtml(story, ctx, check.expiresAt, {
      as: args.as ?? "subscriber",
      accountDefault: (
        await db.account.findUniqueOrThrow({
          where: { id: story.accountId },
          select: { paywallDefaultElements: true },
        })
      ).paywallDefaultElements,
    }),
  };
}
