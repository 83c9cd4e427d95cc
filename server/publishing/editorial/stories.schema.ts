/**
 * What editors send and see when they write stories in the dashboard (tRPC `stories.*`), plus the
 * small pure helpers the story form shares with the server (slugs, YouTube and tweet URLs).
 * Imports zod and other schema files only: the dashboard's components import this file.
 */
import { z } from "zod";

import { zBoundedInstant } from "../../dates.schema";
import { isSlug } from "../../text/slug";
import type { STORY_WORKFLOW_EVENTS } from "../../webhooks/events.schema";
import { ZCards, type TCard } from "../cards.schema";
import { ZAltText } from "./media.schema";

// ─── Vocabulary ──────────────────────────────────────────────────────────────────────────────

export const STORY_STATUSES = ["DRAFT", "SUBMITTED", "APPROVED", "PUBLISHED", "RETRACTED"] as const;
export const ZStoryStatus = z.enum(STORY_STATUSES);
export type TStoryStatus = z.infer<typeof ZStoryStatus>;

/** Workflow moves (server/publishing/editorial/workflow.ts has the table). */
export const STORY_ACTIONS = ["submit", "approve", "reject", "publish", "retract", "back-to-draft"] as const;
const ZStoryAction = z.enum(STORY_ACTIONS);
export type TStoryAction = z.infer<typeof ZStoryAction>;

/** The CONTENT webhook events the story workflow emits (declared in server/webhooks/events.schema.ts). */
export type TContentWorkflowEvent = (typeof STORY_WORKFLOW_EVENTS)[number];

/** Who may read a published story: anyone, signed-in members, or subscribers. */
export const STORY_ACCESS = ["public", "login", "subscription"] as const;
const ZStoryAccess = z.enum(STORY_ACCESS);

/** Templates front ends commonly render; any other lower-case name is accepted too. */
export const STORY_TEMPLATES = ["text", "photo", "video", "listicle", "live-blog", "interview", "review"] as const;

// ─── Helpers shared by the form and the server ───────────────────────────────────────────────

/** Stories' slugs made from headlines are at most this long. */
export const STORY_SLUG_MAX = 120;

/**
 * One or more "/"-separated parts ("politics/budget-2026", "राजनीति/बजट-2026"), each a slug by
 * text/slug.ts's rule: words of letters, marks and digits in any script joined by "-".
 */
const isStorySlug = (slug: string) => slug.split("/").every((part) => isSlug(part, 200));

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** An http(s) URL, or null for anything else (unparseable, javascript:, data:…). */
function parseWebUrl(input: string): URL | null {
  try {
    const url = new URL(input.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** The video id of a YouTube watch, share, shorts or embed URL; null for anything else. */
export function youtubeVideoId(input: string): string | null {
  const url = parseWebUrl(input);
  if (!url) return null;
  const host = url.hostname.toLowerCase();
  let id: string | null | undefined = null;
  if (host === "youtu.be") id = url.pathname.split("/")[1];
  else if (YOUTUBE_HOSTS.has(host)) {
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] === "watch") id = url.searchParams.get("v");
    else if (parts[0] === "embed" || parts[0] === "shorts" || parts[0] === "live" || parts[0] === "v") id = parts[1];
  }
  return id && YOUTUBE_ID.test(id) ? id : null;
}

/** The tweet id of a twitter.com or x.com status URL; null for anything else. */
export function tweetIdFromUrl(input: string): string | null {
  const url = parseWebUrl(input);
  if (!url) return null;
  const host = url.hostname.toLowerCase().replace(/^(www\.|mobile\.)/, "");
  if (host !== "twitter.com" && host !== "x.com") return null;
  const match = /^\/(?:[A-Za-z0-9_]{1,15}|i\/web)\/status(?:es)?\/(\d{1,30})(?:\/|$)/.exec(url.pathname);
  return match ? match[1]! : null;
}

// ─── Inputs ──────────────────────────────────────────────────────────────────────────────────

/** Empty or blank → null: the form sends "" for a cleared field. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullable()
    .transform((value) => (value ? value : null));

/** A row id: PostgreSQL's integer (anything larger is no id of ours, and the database would refuse it). */
const zId = z.number().int().positive().max(2_147_483_647);
const uniqueIds = (what: string, max: number) =>
  z
    .array(zId)
    .max(max, `at most ${max} ${what}`)
    .refine((ids) => new Set(ids).size === ids.length, `the same ${what.replace(/s$/, "")} is listed twice`);

const ZHeroImage = z.object({
  s3Key: z.string().trim().min(1, "is required").max(500),
  caption: optionalText(1_000).optional(),
  attribution: optionalText(500).optional(),
  metadata: z
    .object({
      width: z.number().int().positive().optional(),
      height: z.number().int().positive().optional(),
      "mime-type": z.string().max(100).optional(),
      "focus-point": z.tuple([z.number().int().min(0), z.number().int().min(0)]).optional(),
      /** The hero image's alternative text, as plain text (an image element keeps its own in metadata.alt too). */
      alt: ZAltText.optional(),
    })
    .optional(),
});

const ZStorySeo = z.object({
  metaTitle: optionalText(200).optional(),
  metaDescription: optionalText(500).optional(),
  metaKeywords: z.array(z.string().trim().min(1).max(100)).max(30).optional(),
});

/** A tag the story carries: an existing one by id, or one found or created by name. */
const ZStoryTagRef = z.union([
  z.object({ id: zId }),
  z.object({ name: z.string().trim().min(1, "is required").max(100) }),
]);
export type TStoryTagRef = z.infer<typeof ZStoryTagRef>;

/** No story has more elements than this (a cap on paywallAt before the cards are counted). */
const PAYWALL_AT_MAX = 100_000;

/** The story elements of `cards`, counted across the cards (what the paywall point counts). */
export function countStoryElements(cards: readonly TCard[]): number {
  return cards.reduce((sum, card) => sum + (card["story-elements"]?.length ?? 0), 0);
}

/** The words of a paywall point beyond the story's elements (the save refuses it, 400). */
export function paywallAtIssue(paywallAt: number, elements: number): string | null {
  return paywallAt > elements
    ? `is after element ${paywallAt}, but the story has ${elements} ${elements === 1 ? "element" : "elements"}: use 0 to ${elements}`
    : null;
}

/** A save that sends both the cards and the paywall point: the point must fall within those cards. */
function refinePaywallAt(input: { cards?: TCard[]; paywallAt?: number | null }, ctx: z.RefinementCtx): void {
  if (input.cards === undefined || input.paywallAt === undefined || input.paywallAt === null) return;
  const issue = paywallAtIssue(input.paywallAt, countStoryElements(input.cards));
  if (issue) ctx.addIssue({ code: "custom", path: ["paywallAt"], message: issue });
}

/** Every field an editor sets. No defaults here: an update changes only the fields it names. */
const ZStoryFields = z.object({
  headline: z.string().trim().min(1, "is required").max(500),
  subheadline: optionalText(1_000),
  /** Empty: made from the headline. Unique per publisher. */
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .normalize("NFC")
    .max(200)
    .refine(
      (slug) => slug === "" || isStorySlug(slug),
      "use letters, digits and single hyphens (no accents on Latin letters), optionally in parts separated by /",
    ),
  summary: optionalText(2_000),
  /** Text elements' HTML is sanitised to a small allow-list on save. */
  cards: ZCards,
  /** In order; the first is the story's primary section. */
  sectionIds: uniqueIds("sections", 20),
  /** In order; the first is the primary author (author-id, author-name). */
  authorIds: uniqueIds("authors", 20),
  tags: z.array(ZStoryTagRef).max(50, "at most 50 tags"),
  /** The account's entities the story is about (people, teams…); served as `entities` by the content API. */
  entityIds: uniqueIds("entities", 50),
  heroImage: ZHeroImage.nullable(),
  seo: ZStorySeo,
  access: ZStoryAccess,
  /**
   * The paywall point: how many story elements, counted across the cards in order, every reader
   * may read (0: none; at most the story's elements); null: the account's default
   * (../paywall-point.ts). Matters only when access is login or subscription.
   */
  paywallAt: z
    .number()
    .int("must be a whole number of elements")
    .min(0, "must be 0 (nothing free) or more")
    .max(PAYWALL_AT_MAX, `must be at most ${PAYWALL_AT_MAX}`)
    .nullable(),
  storyTemplate: z
    .string()
    .trim()
    .max(50)
    .regex(/^([a-z0-9][a-z0-9-]*)?$/, "use lower-case letters, digits and hyphens")
    .nullable()
    .transform((value) => (value ? value : null)),
  isBreakingNews: z.boolean(),
  /** Breaking news stops showing at this time; null: until unmarked. */
  breakingNewsExpiresAt: z
    .date()
    .min(new Date("1000-01-01T00:00:00Z"), "must be a date after the year 1000")
    .max(new Date("9999-12-31T23:59:59Z"), "must be a date before the year 10000")
    .nullable(),
  /** The story a breaking-news item links to (often the story itself, or a fuller one). */
  breakingNewsLinkedStoryId: z.uuid().nullable(),
});

export const ZCreateStoryInput = ZStoryFields.partial()
  .extend({ headline: ZStoryFields.shape.headline })
  .superRefine(refinePaywallAt);
export type TCreateStoryInput = z.input<typeof ZCreateStoryInput>;

/** How a save came about: the editor's Save button, or the autosave of a draft (revisions.ts). */
const STORY_SAVE_KINDS = ["save", "autosave"] as const;

/**
 * `version` is the one the editor loaded: if someone saved since, the update is refused (CONFLICT).
 * `saveKind` "autosave" is for drafts only (a published story changes for readers only on an
 * explicit save); it defaults to "save".
 */
export const ZUpdateStoryInput = ZStoryFields.partial()
  .extend({
    id: z.uuid(),
    version: z.number().int().positive(),
    saveKind: z.enum(STORY_SAVE_KINDS).optional(),
  })
  .superRefine(refinePaywallAt);
export type TUpdateStoryInput = z.input<typeof ZUpdateStoryInput>;

/** A note to the writer may go with a move back to draft (reject, back-to-draft) only. */
export const RETURN_NOTE_MAX = 2000;

export const ZTransitionStoryInput = z.object({
  id: z.uuid(),
  version: z.number().int().positive(),
  action: ZStoryAction,
  /** Why the story goes back to draft, for its writer (moves back to draft only; empty: none). */
  note: z
    .string()
    .trim()
    .max(RETURN_NOTE_MAX, `The note is at most ${RETURN_NOTE_MAX} characters.`)
    .optional()
    .transform((v) => v || undefined),
});

/** The note left with the story's latest move back to draft, while it is a draft. */
export const ZReturnNote = z.object({
  note: z.string(),
  /** The name of who sent it back; null when they are no longer on the staff. */
  by: z.string().nullable(),
  at: z.date(),
  action: z.enum(["reject", "back-to-draft"]),
});
export type TReturnNote = z.infer<typeof ZReturnNote>;
export const ZReturnNoteInput = z.object({ storyId: z.uuid() });
export type TTransitionStoryInput = z.input<typeof ZTransitionStoryInput>;

/**
 * Schedule an approved story's publication. `publishAt` must be at least a minute ahead (and at
 * most a year): the scheduler publishes it then, as "Publish" would.
 */
export const ZScheduleStoryInput = z.object({
  id: z.uuid(),
  version: z.number().int().positive(),
  publishAt: zBoundedInstant,
});
export type TScheduleStoryInput = z.input<typeof ZScheduleStoryInput>;

export const ZUnscheduleStoryInput = z.object({ id: z.uuid(), version: z.number().int().positive() });
export type TUnscheduleStoryInput = z.input<typeof ZUnscheduleStoryInput>;

export const ZDeleteStoryInput = z.object({ id: z.uuid(), version: z.number().int().positive() });

// The list's input (search, filters, sort, paging) is in ./story-finding.schema.ts.

// ─── Views (tRPC outputs) ────────────────────────────────────────────────────────────────────

const ZStoryMove = z.object({ action: ZStoryAction, to: ZStoryStatus, label: z.string() });

/** The hero image and the SEO fields as the editor shows them (also in revisions' snapshots). */
export const ZStoryHeroImageView = z.object({
  s3Key: z.string(),
  caption: z.string().nullable(),
  attribution: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
});
export const ZStorySeoView = z.object({
  metaTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  metaKeywords: z.array(z.string()),
});

export const ZStoryEditorView = z.object({
  id: z.uuid(),
  status: ZStoryStatus,
  version: z.number().int(),
  storyVersionId: z.uuid(),
  headline: z.string(),
  subheadline: z.string().nullable(),
  slug: z.string(),
  summary: z.string().nullable(),
  cards: ZCards,
  sections: z.array(z.object({ id: z.number().int(), name: z.string() })),
  authors: z.array(z.object({ id: z.number().int(), name: z.string() })),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), slug: z.string() })),
  entities: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string() })),
  heroImage: ZStoryHeroImageView.nullable(),
  seo: ZStorySeoView,
  access: z.string(),
  /** The story's own paywall point (elements free to all), or null: the account's default. */
  paywallAt: z.number().int().nullable(),
  storyTemplate: z.string().nullable(),
  isBreakingNews: z.boolean(),
  breakingNewsExpiresAt: z.date().nullable(),
  breakingNewsLinkedStoryId: z.string().nullable(),
  readTime: z.number().int(),
  publishedAt: z.date().nullable(),
  /** When it is scheduled to be published (approved stories only), or null. */
  publishAt: z.date().nullable(),
  firstPublishedAt: z.date().nullable(),
  lastPublishedAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /** The story on the publisher's site. */
  /** The story's page on the publication's site, `<site URL>/<slug>`; null until Settings has the site URL. */
  url: z.string().nullable(),
  /** The workflow moves open to it now: the dashboard shows a button for each, and no other. */
  moves: z.array(ZStoryMove),
  canDelete: z.boolean(),
  /**
   * Whether the signed-in user may save it and schedule it (a contributor: only their own
   * drafts, never schedule; ../authorship.ts). Moves and canDelete are already those they may use.
   */
  canEdit: z.boolean().default(true),
  canSchedule: z.boolean().default(true),
  /**
   * Moves the story could make that the self-approval rule keeps from this user, with the reason:
   * the dashboard shows them disabled with it (moves stay those the user may use).
   */
  blockedMoves: z.array(ZStoryMove.extend({ reason: z.string() })).default([]),
  /** Why this user may not schedule it under the self-approval rule, or null. */
  scheduleBlockedReason: z.string().nullable().default(null),
});
export type TStoryEditorView = z.infer<typeof ZStoryEditorView>;

const ZStoryListItem = z.object({
  id: z.uuid(),
  headline: z.string(),
  slug: z.string(),
  status: ZStoryStatus,
  version: z.number().int(),
  section: z.string().nullable(),
  authors: z.array(z.string()),
  isBreakingNews: z.boolean(),
  updatedAt: z.date(),
  publishedAt: z.date().nullable(),
  /** Scheduled publication, if any. */
  publishAt: z.date().nullable(),
});
export type TStoryListItem = z.infer<typeof ZStoryListItem>;

export const ZStoryPage = z.object({
  items: z.array(ZStoryListItem),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});

/** What a save or move did: the story as it is now, and the webhook event it emitted (if any). */
export const ZStoryWriteResult = z.object({
  story: ZStoryEditorView,
  event: z.string().nullable(),
  /** How many webhooks the event was queued for (0 when none subscribes to it). */
  notified: z.number().int().nonnegative(),
});

/** Search the account's entities by name, for the story form's entity picker. */
export const ZStoryEntitySearchInput = z.object({
  search: z.string().trim().max(200).default(""),
  limit: z.number().int().min(1).max(50).default(20),
});
export const ZStoryEntityChoices = z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string() }));

/** Choices for the story form. */
export const ZStoryFormOptions = z.object({
  sections: z.array(z.object({ id: z.number().int(), name: z.string(), parentId: z.number().int().nullable() })),
  authors: z.array(z.object({ id: z.number().int(), name: z.string() })),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), slug: z.string() })),
  /** The publication's site URL (for the search-result preview); null until Settings has one. */
  siteUrl: z.string().nullable(),
  /** The account's paywall point for stories that set none: this many elements free. */
  paywallDefaultElements: z.number().int(),
});
