/**
 * A story's revisions (tRPC `stories.revisions`, `stories.revision`, `stories.restoreRevision`) and
 * its private preview links (`stories.previewLink`). Imports zod and other schema files only: the
 * dashboard's components import this file.
 *
 * A revision's snapshot is everything the story editor edits, as the editor sees it (related rows
 * with their names, so an old revision still reads well after a tag is renamed or deleted).
 */
import { z } from "zod";

import { ZCards } from "../cards.schema";
import { ZStoryHeroImageView, ZStorySeoView } from "./stories.schema";

const REVISION_KINDS = ["save", "autosave", "restore"] as const;
const ZRevisionKind = z.enum(REVISION_KINDS);
export type TRevisionKind = z.infer<typeof ZRevisionKind>;

/** Consecutive autosaves by one editor share one revision while it is younger than this. */
export const AUTOSAVE_COALESCE_MS = 10 * 60_000;

const ZNamed = z.object({ id: z.number().int(), name: z.string() });

export const ZRevisionSnapshot = z.object({
  headline: z.string(),
  subheadline: z.string().nullable(),
  slug: z.string(),
  summary: z.string().nullable(),
  cards: ZCards,
  sections: z.array(ZNamed),
  authors: z.array(ZNamed),
  tags: z.array(ZNamed),
  entities: z.array(ZNamed.extend({ type: z.string() })),
  heroImage: ZStoryHeroImageView.nullable(),
  seo: ZStorySeoView,
  access: z.string(),
  /** The story's paywall point; absent from revisions saved before editors could set it. */
  paywallAt: z.number().int().nullable().optional(),
  storyTemplate: z.string().nullable(),
  isBreakingNews: z.boolean(),
  /** ISO 8601, UTC. */
  breakingNewsExpiresAt: z.string().nullable(),
  breakingNewsLinkedStoryId: z.string().nullable(),
});
export type TRevisionSnapshot = z.infer<typeof ZRevisionSnapshot>;

export const ZRevisionListInput = z.object({
  storyId: z.uuid(),
  offset: z.number().int().min(0).max(100_000).default(0),
  limit: z.number().int().min(1).max(100).default(20),
});
export type TRevisionListInput = z.input<typeof ZRevisionListInput>;

export const ZRevisionInput = z.object({
  storyId: z.uuid(),
  revisionId: z.number().int().positive().max(2_147_483_647),
});

/** Write the revision's content as a new save on top of `version` (the story's current one). */
export const ZRestoreRevisionInput = ZRevisionInput.extend({ version: z.number().int().positive() });
export type TRestoreRevisionInput = z.input<typeof ZRestoreRevisionInput>;

const ZRevisionListItem = z.object({
  id: z.number().int(),
  version: z.number().int(),
  kind: ZRevisionKind,
  /** Who saved it; null when the staff user is gone or it was not a person. */
  savedBy: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  headline: z.string(),
});
export type TRevisionListItem = z.infer<typeof ZRevisionListItem>;

export const ZRevisionPage = z.object({
  items: z.array(ZRevisionListItem),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});

export const ZRevisionView = ZRevisionListItem.extend({
  snapshot: ZRevisionSnapshot,
  /** The save before this one (what this save changed), or null for the story's first revision. */
  previous: z.object({ version: z.number().int(), snapshot: ZRevisionSnapshot }).nullable(),
});
export type TRevisionView = z.infer<typeof ZRevisionView>;

// ─── Preview links ───────────────────────────────────────────────────────────────────────────

/** A preview link works this long. */
export const PREVIEW_TTL_MS = 24 * 60 * 60_000;

export const ZPreviewLinkInput = z.object({ storyId: z.uuid() });
export const ZPreviewLink = z.object({
  /** The plain article view. */
  url: z.string(),
  /** The AMP rendering of the same draft. */
  ampUrl: z.string(),
  /**
   * The publication's own preview page (the account's preview URL with the token, which its
   * front end exchanges at GET /api/v1/preview/<token>); null when the account has none.
   */
  frontEndUrl: z.string().nullable(),
  expiresAt: z.date(),
});
