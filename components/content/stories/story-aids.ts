/**
 * What the story editor tells a writer about the story in hand, as pure functions (no React):
 * the word count and reading time, the checks shown before publishing, what restoring a revision
 * does to the story's state, the card a share on Facebook or X shows, and the save shortcut
 * (Ctrl+S / ⌘S).
 */
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";
import type { TStoryStatus } from "@/server/publishing/editorial/stories.schema";

import { cardsText, truncate, type FormValues } from "./story-form";
import { htmlToDiffText } from "./word-diff";

// ─── Word count ──────────────────────────────────────────────────────────────────────────────

/** Reading speed for the reading time: words a minute of an adult reading news on a screen. */
export const WORDS_PER_MINUTE = 230;

/** The element types whose text readers read (headings, body, quotes, facts), not captions or embeds. */
const READ_TYPES = new Set<TStoryElement["type"]>(["text", "title", "summary", "quote", "blockquote", "bigfact"]);

function elementTexts(element: TStoryElement): string[] {
  const out: string[] = [];
  if (READ_TYPES.has(element.type)) {
    if (element.text) out.push(element.text);
    const content = (element.metadata as { content?: unknown } | undefined)?.content;
    if (typeof content === "string" && content) out.push(content);
  }
  for (const inner of element["story-elements"] ?? []) out.push(...elementTexts(inner));
  return out;
}

/** The words in an HTML or plain text: runs of letters and digits, with inner apostrophes and hyphens. */
export function countWordsIn(html: string): number {
  return htmlToDiffText(html).match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** The story's words (the cards' text, not the headline or captions) and its reading time in whole minutes. */
export function storyLength(cards: TCard[]): { words: number; minutes: number } {
  const words = cards
    .flatMap((card) => card["story-elements"].flatMap(elementTexts))
    .reduce((sum, html) => sum + countWordsIn(html), 0);
  return { words, minutes: words === 0 ? 0 : Math.ceil(words / WORDS_PER_MINUTE) };
}

export function lengthText({ words, minutes }: { words: number; minutes: number }): string {
  const count = `${words.toLocaleString("en-US")} ${words === 1 ? "word" : "words"}`;
  return minutes === 0 ? count : `${count} · ${minutes} min read`;
}

// ─── Before publishing ───────────────────────────────────────────────────────────────────────

export type PublishCheck = { id: "text" | "section" | "author" | "hero" | "hero-alt"; message: string };

/**
 * What a story about to be published still lacks: warnings, not refusals (the server publishes
 * without them), in the order the form shows the fields.
 */
export function prePublishChecks(values: FormValues): PublishCheck[] {
  const checks: PublishCheck[] = [];
  if (storyLength(values.cards).words === 0) checks.push({ id: "text", message: "The story has no text yet." });
  if (!values.heroKey.trim())
    checks.push({ id: "hero", message: "No hero image: shares and the front page show none." });
  else if (!values.heroMetadata?.alt?.trim())
    checks.push({ id: "hero-alt", message: "The hero image has no alt text for readers who cannot see it." });
  if (values.sections.length === 0)
    checks.push({ id: "section", message: "No section: the story shows on no section page." });
  if (values.authors.length === 0) checks.push({ id: "author", message: "No author: the story has no byline." });
  return checks;
}

// ─── Restoring a revision ────────────────────────────────────────────────────────────────────

/**
 * The confirmation before restoring `version`. A story has one version at a time (there is no
 * separate draft of a published story), so restoring a published story changes what readers see
 * at once, and the confirmation says so.
 */
export function restoreConfirmation(
  status: TStoryStatus,
  version: number,
): { title: string; body: string; confirmLabel: string } {
  const kept = "The current version stays in the history.";
  if (status === "PUBLISHED")
    return {
      title: `Restore version ${version} on the live story?`,
      body: `This story is published: readers, the API and the feeds get version ${version}'s headline, text and images at once, and the subscribed webhooks hear of the update. ${kept}`,
      confirmLabel: "Restore and publish",
    };
  return {
    title: `Restore version ${version}?`,
    body: `Its content is saved as a new version on top of the current one; readers see nothing until the story is published. ${kept}`,
    confirmLabel: "Restore",
  };
}

// ─── Social card ─────────────────────────────────────────────────────────────────────────────

/** About where Facebook's and X's link cards cut a title and a description. */
export const SOCIAL_TITLE_MAX = 70;
const SOCIAL_DESCRIPTION_MAX = 200;

/**
 * The link card a share of the story shows on Facebook and X: the site's host in capitals, the
 * title (meta title, else headline), the description (meta description, else summary,
 * subheadline or text) and the hero image: what a front end's Open Graph and X card tags
 * usually carry, from the same fields as the search preview.
 */
export function socialCard(
  values: FormValues,
  siteUrl: string | null,
): { host: string; title: string; description: string; imageKey: string | null; imageAlt: string } {
  let host = "YOUR-SITE.EXAMPLE";
  try {
    if (siteUrl) host = new URL(siteUrl).host.toUpperCase();
  } catch {
    // An unreadable site URL shows the example host.
  }
  return {
    host,
    title: truncate(values.metaTitle || values.headline || "Untitled story", SOCIAL_TITLE_MAX),
    description: truncate(
      values.metaDescription || values.summary || values.subheadline || cardsText(values.cards),
      SOCIAL_DESCRIPTION_MAX,
    ),
    imageKey: values.heroKey.trim() || null,
    imageAlt: values.heroMetadata?.alt ?? "",
  };
}

// ─── Keyboard ────────────────────────────────────────────────────────────────────────────────

/** Ctrl+S, or ⌘S on a Mac: the browser's "save page", which the editor takes over to save the story. */
export function isSaveShortcut(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "s";
}
