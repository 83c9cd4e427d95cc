/**
 * The story form's values and the pure logic around them: loading a story (or a revision's
 * snapshot) into the form, the input a save sends, and comparing two states field by field (the
 * revision diff and the side-by-side view when two editors saved the same story). No React here.
 */
import { formatDay, fromZonedInput, toZonedInput } from "@/server/dates.schema";
import type { TCard } from "@/server/publishing/cards.schema";
import type { TRevisionSnapshot } from "@/server/publishing/editorial/revisions.schema";
import {
  STORY_ACCESS,
  type TCreateStoryInput,
  type TStoryEditorView,
} from "@/server/publishing/editorial/stories.schema";
import { truncateGraphemes } from "@/server/text/graphemes";

import { htmlToDiffText } from "./word-diff";

export type Named = { id: number; name: string };
export type TagChoice = { id: number; name: string } | { id?: undefined; name: string };
export type EntityChoice = { id: number; name: string; type: string };

export type FormValues = {
  headline: string;
  subheadline: string;
  slug: string;
  summary: string;
  cards: TCard[];
  sections: Named[];
  authors: Named[];
  tags: TagChoice[];
  entities: EntityChoice[];
  heroKey: string;
  heroCaption: string;
  heroAttribution: string;
  heroMetadata: { width?: number; height?: number; "mime-type"?: string; alt?: string } | null;
  metaTitle: string;
  metaDescription: string;
  metaKeywords: string;
  access: (typeof STORY_ACCESS)[number];
  /** Elements free to every reader (the paywall divider); null: the account's default. */
  paywallAt: number | null;
  storyTemplate: string;
  isBreakingNews: boolean;
  breakingNewsExpiresAt: string;
  breakingNewsLinkedStoryId: string;
};

/** What the form loads from: the story as the editor sees it, or a revision's snapshot. */
type StoryContent = Omit<TRevisionSnapshot, "breakingNewsExpiresAt"> & {
  breakingNewsExpiresAt: Date | string | null;
};

/** A Date as the value of a datetime-local input, on `zone`'s clocks (undefined: the browser's). */
function toLocalInput(date: Date | null, zone?: string): string {
  return date ? toZonedInput(date, zone) : "";
}

/** A datetime-local value as the one format's words without the zone ("1 Mar 2026, 19:00"): the form's zone is the account's. */
function wallTimeWords(value: string): string {
  const [day, time] = value.split("T");
  return day && time ? `${formatDay(day)}, ${time}` : value;
}

/** The hero image's stored metadata, keeping only what the form sends back. */
function heroMetadataOf(metadata: Record<string, unknown> | null | undefined): FormValues["heroMetadata"] {
  if (!metadata) return null;
  const { width, height } = metadata;
  const mime = metadata["mime-type"];
  const alt = metadata.alt;
  return {
    ...(typeof width === "number" ? { width } : {}),
    ...(typeof height === "number" ? { height } : {}),
    ...(typeof mime === "string" ? { "mime-type": mime } : {}),
    ...(typeof alt === "string" && alt ? { alt } : {}),
  };
}

/**
 * The form's values for a story or snapshot; `emptyCards` for a new story. Date-and-time fields are
 * on `zone`'s clocks (the account's; undefined: the browser's).
 */
export function formValuesOf(
  story: StoryContent | TStoryEditorView | null,
  emptyCards: () => TCard[],
  zone?: string,
): FormValues {
  const expires = story?.breakingNewsExpiresAt ?? null;
  return {
    headline: story?.headline ?? "",
    subheadline: story?.subheadline ?? "",
    slug: story?.slug ?? "",
    summary: story?.summary ?? "",
    cards: story?.cards ?? emptyCards(),
    sections: story?.sections.map(({ id, name }) => ({ id, name })) ?? [],
    authors: story?.authors.map(({ id, name }) => ({ id, name })) ?? [],
    tags: story?.tags.map((t) => ({ id: t.id, name: t.name })) ?? [],
    entities: story?.entities.map(({ id, name, type }) => ({ id, name, type })) ?? [],
    heroKey: story?.heroImage?.s3Key ?? "",
    heroCaption: story?.heroImage?.caption ?? "",
    heroAttribution: story?.heroImage?.attribution ?? "",
    heroMetadata: heroMetadataOf(story?.heroImage?.metadata),
    metaTitle: story?.seo.metaTitle ?? "",
    metaDescription: story?.seo.metaDescription ?? "",
    metaKeywords: story?.seo.metaKeywords.join(", ") ?? "",
    access: (STORY_ACCESS as readonly string[]).includes(story?.access ?? "")
      ? (story!.access as FormValues["access"])
      : "public",
    paywallAt: story?.paywallAt ?? null,
    storyTemplate: story?.storyTemplate ?? "",
    isBreakingNews: story?.isBreakingNews ?? false,
    breakingNewsExpiresAt: toLocalInput(expires ? new Date(expires) : null, zone),
    breakingNewsLinkedStoryId: story?.breakingNewsLinkedStoryId ?? "",
  };
}

/** What the procedures take; date-and-time fields read on `zone`'s clocks, as `formValuesOf` wrote them. */
export function toInput(values: FormValues, zone?: string): TCreateStoryInput {
  return {
    headline: values.headline,
    subheadline: values.subheadline,
    slug: values.slug,
    summary: values.summary,
    cards: values.cards,
    sectionIds: values.sections.map((s) => s.id),
    authorIds: values.authors.map((a) => a.id),
    tags: values.tags.map((t) => (t.id !== undefined ? { id: t.id } : { name: t.name })),
    entityIds: values.entities.map((e) => e.id),
    heroImage: values.heroKey.trim()
      ? {
          s3Key: values.heroKey,
          caption: values.heroCaption,
          attribution: values.heroAttribution,
          ...(values.heroMetadata ? { metadata: values.heroMetadata } : {}),
        }
      : null,
    seo: {
      metaTitle: values.metaTitle,
      metaDescription: values.metaDescription,
      metaKeywords: values.metaKeywords
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    },
    access: values.access,
    paywallAt: values.paywallAt,
    storyTemplate: values.storyTemplate,
    isBreakingNews: values.isBreakingNews,
    breakingNewsExpiresAt: values.breakingNewsExpiresAt ? fromZonedInput(values.breakingNewsExpiresAt, zone) : null,
    breakingNewsLinkedStoryId: values.breakingNewsLinkedStoryId.trim() || null,
  };
}

// ─── Comparing ───────────────────────────────────────────────────────────────────────────────

/** Card fields that say when and in which version a card changed: not an editor's change. */
const CARD_BOOKKEEPING = new Set(["card-added-at", "card-updated-at", "version", "content-version-id", "content-id"]);

/** The cards as readable text: each element's text (HTML reduced to text) or its kind and link. */
export function cardsText(cards: readonly TCard[]): string {
  return cards
    .map((card) =>
      card["story-elements"]
        .map((element) => {
          if (element.type === "text" || element.type === "title")
            return htmlToDiffText(typeof element.text === "string" ? element.text : "");
          const link = element.url ?? element["image-s3-key"] ?? "";
          const title = typeof element.title === "string" ? element.title : "";
          return `[${element.type}${link ? ` ${link}` : ""}${title ? ` "${title}"` : ""}]`;
        })
        .filter(Boolean)
        .join("\n"),
    )
    .join("\n\n");
}

/** The cards without their bookkeeping, for telling whether an editor changed them. */
function cardsContent(cards: readonly TCard[]): string {
  return JSON.stringify(
    cards.map((card) => Object.fromEntries(Object.entries(card).filter(([key]) => !CARD_BOOKKEEPING.has(key)))),
  );
}

const names = (list: readonly { name: string }[]) => list.map((x) => x.name).join(", ");

/** The form's fields as an editor thinks of them: each compared and chosen as one. */
export const FIELD_GROUPS = [
  { key: "headline", label: "Headline", fields: ["headline"], text: (v: FormValues) => v.headline },
  { key: "subheadline", label: "Subheadline", fields: ["subheadline"], text: (v: FormValues) => v.subheadline },
  { key: "slug", label: "Slug", fields: ["slug"], text: (v: FormValues) => v.slug },
  { key: "summary", label: "Summary", fields: ["summary"], text: (v: FormValues) => v.summary },
  {
    key: "cards",
    label: "Story text (cards)",
    fields: ["cards"],
    text: (v: FormValues) => cardsText(v.cards),
    same: (a: FormValues, b: FormValues) => cardsContent(a.cards) === cardsContent(b.cards),
  },
  {
    key: "hero",
    label: "Hero image",
    fields: ["heroKey", "heroCaption", "heroAttribution", "heroMetadata"],
    text: (v: FormValues) => [v.heroKey, v.heroCaption, v.heroAttribution].filter(Boolean).join(" · "),
  },
  { key: "sections", label: "Sections", fields: ["sections"], text: (v: FormValues) => names(v.sections) },
  { key: "authors", label: "Authors", fields: ["authors"], text: (v: FormValues) => names(v.authors) },
  { key: "tags", label: "Tags", fields: ["tags"], text: (v: FormValues) => names(v.tags) },
  {
    key: "entities",
    label: "Entities",
    fields: ["entities"],
    text: (v: FormValues) => names(v.entities),
    same: (a: FormValues, b: FormValues) =>
      JSON.stringify(a.entities.map((e) => e.id).sort()) === JSON.stringify(b.entities.map((e) => e.id).sort()),
  },
  { key: "metaTitle", label: "SEO title", fields: ["metaTitle"], text: (v: FormValues) => v.metaTitle },
  {
    key: "metaDescription",
    label: "SEO description",
    fields: ["metaDescription"],
    text: (v: FormValues) => v.metaDescription,
  },
  { key: "metaKeywords", label: "SEO keywords", fields: ["metaKeywords"], text: (v: FormValues) => v.metaKeywords },
  {
    key: "paywall",
    label: "Paywall point",
    fields: ["paywallAt"],
    text: (v: FormValues) =>
      v.paywallAt === null ? "the account's default" : `the first ${v.paywallAt} elements free`,
  },
  {
    key: "publishing",
    label: "Access, template and breaking news",
    fields: ["access", "storyTemplate", "isBreakingNews", "breakingNewsExpiresAt", "breakingNewsLinkedStoryId"],
    text: (v: FormValues) =>
      [
        `access: ${v.access}`,
        `template: ${v.storyTemplate || "default"}`,
        v.isBreakingNews
          ? `breaking news${v.breakingNewsExpiresAt ? ` until ${wallTimeWords(v.breakingNewsExpiresAt)}` : ""}${v.breakingNewsLinkedStoryId ? `, linking ${v.breakingNewsLinkedStoryId}` : ""}`
          : "not breaking news",
      ].join("; "),
  },
] as const satisfies readonly {
  key: string;
  label: string;
  fields: readonly (keyof FormValues)[];
  text: (v: FormValues) => string;
  same?: (a: FormValues, b: FormValues) => boolean;
}[];

type FieldGroup = (typeof FIELD_GROUPS)[number];
export type FieldGroupKey = FieldGroup["key"];

function sameGroup(group: FieldGroup, a: FormValues, b: FormValues): boolean {
  if ("same" in group) return group.same(a, b);
  return group.fields.every((f) => JSON.stringify(a[f]) === JSON.stringify(b[f]));
}

/** The groups in which `a` and `b` differ, in the form's order. */
export function changedGroups(a: FormValues, b: FormValues): FieldGroup[] {
  return FIELD_GROUPS.filter((group) => !sameGroup(group, a, b));
}

/** `base` with the fields of every group in `take` from `from`. */
export function takeGroups(base: FormValues, from: FormValues, take: readonly FieldGroupKey[]): FormValues {
  const out = { ...base } as Record<keyof FormValues, unknown>;
  for (const group of FIELD_GROUPS) {
    if (!take.includes(group.key)) continue;
    for (const field of group.fields) out[field] = from[field];
  }
  return out as FormValues;
}

/**
 * A three-way look at a conflict: of the groups where `theirs` and `mine` differ, the ones only
 * they changed since `base` (the version this editor started from). Keeping "mine" for those
 * would undo their work with text this editor never touched, so they default to theirs.
 */
export function changedOnlyByThem(base: FormValues, mine: FormValues, theirs: FormValues): FieldGroupKey[] {
  return changedGroups(theirs, mine)
    .filter((group) => sameGroup(group, base, mine))
    .map((group) => group.key);
}

/**
 * After a save of `sent` came back as `saved` while the editor kept typing (`now`): the saved
 * state, with the groups the editor changed since `sent` kept as they are now.
 */
export function rebase(saved: FormValues, sent: FormValues, now: FormValues): FormValues {
  return takeGroups(
    saved,
    now,
    changedGroups(sent, now).map((g) => g.key),
  );
}

// ─── The search-result preview ───────────────────────────────────────────────────────────────

export const SEO_TITLE_MAX = 60;
export const SEO_DESCRIPTION_MAX = 160;

/** `text` cut at a word boundary to at most `max` characters, "…" added when cut. */
export function truncate(text: string, max: number): string {
  return truncateGraphemes(text.replace(/\s+/g, " ").trim(), max, { atWord: true });
}

/** What a search engine would show for the story: title, URL and description. */
export function searchResult(
  values: FormValues,
  siteUrl: string | null,
): { title: string; url: string; description: string } {
  const title = truncate(values.metaTitle || values.headline || "Untitled story", SEO_TITLE_MAX);
  const slug = values.slug || "(made from the headline)";
  const url = `${(siteUrl ?? "https://your-site.example").replace(/\/+$/, "")}/${slug}`;
  const description = truncate(
    values.metaDescription || values.summary || values.subheadline || cardsText(values.cards),
    SEO_DESCRIPTION_MAX,
  );
  return { title, url, description };
}
