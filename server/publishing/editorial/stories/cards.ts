/**
 * A story's cards as they are stored: every HTML field reduced to one allow-list and every link
 * checked by one URL rule (../sanitize.ts), embeds' ids derived from their URLs, and each card's
 * version bumped only when its content changed.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { AppError, type ErrorDetail } from "../../../errors";
import type { TCard } from "../../cards.schema";
import { cleanCardFields, cleanStoryElement, storedCardIssues } from "../sanitize";
import { isObject } from "../shared";
import { tweetIdFromUrl, youtubeVideoId } from "../stories.schema";
import { checkElement } from "../story-elements";

/** Card fields that say when and in which version a card changed: left out when comparing contents. */
const CARD_BOOKKEEPING = ["card-added-at", "card-updated-at", "version", "content-version-id", "content-id"] as const;

/** The card without its bookkeeping, as JSON with sorted keys (the database does not keep key order). */
function cardContent(card: TCard): string {
  const copy: Record<string, unknown> = { ...card };
  for (const key of CARD_BOOKKEEPING) delete copy[key];
  return stableJson(copy);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isObject(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Cards as they are stored: HTML sanitised and links checked, YouTube and tweet ids derived from
 * their URLs, and each card's version and times kept when its content did not change (bumped when it did).
 */
export function normalizeCards(cards: readonly TCard[], previous: readonly TCard[], now: Date): TCard[] {
  const details: ErrorDetail[] = [];
  const before = new Map(previous.map((card) => [card.id, card]));
  const at = now.getTime();
  const result = cards.map((card, c) => {
    const elements = card["story-elements"].map((raw, e) => {
      const field = `cards.${c}.story-elements.${e}`;
      // Every HTML field through the allow-list, every link through the URL rule (../sanitize.ts).
      const element = cleanStoryElement(raw, field, details);
      if (element.type === "text") return { ...element, text: (element.text ?? "").trim() };
      if (element.type === "youtube-video") {
        const videoId = element.url ? youtubeVideoId(element.url) : (element["video-id"] ?? null);
        if (!videoId) {
          details.push({ field: `${field}.url`, issue: "is not a YouTube video URL" });
          return element;
        }
        return {
          ...element,
          "video-id": videoId,
          url: `https://www.youtube.com/watch?v=${videoId}`,
          "embed-url": `https://www.youtube.com/embed/${videoId}`,
        };
      }
      if (element.type === "jsembed" && element.subtype === "tweet") {
        const tweetId = element.url ? tweetIdFromUrl(element.url) : (element["tweet-id"] ?? null);
        if (!tweetId) {
          details.push({ field: `${field}.url`, issue: "is not a tweet URL (https://x.com/<user>/status/<id>)" });
          return element;
        }
        return { ...element, "tweet-id": tweetId };
      }
      if (element.type === "image" && !element["image-s3-key"])
        details.push({ field: `${field}.image-s3-key`, issue: "is required" });
      // Quotes, big facts, galleries, files and other embeds (../story-elements.ts).
      return checkElement(element, field, details);
    });
    const next: TCard = {
      ...card,
      ...cleanCardFields(card, `cards.${c}`, details),
      "story-elements": elements,
      "content-id": card["content-id"] ?? card.id,
    };
    const old = before.get(card.id);
    if (old && cardContent(old) === cardContent(next)) {
      return {
        ...next,
        version: old.version,
        "card-added-at": old["card-added-at"] ?? at,
        "card-updated-at": old["card-updated-at"] ?? at,
        "content-version-id": old["content-version-id"] ?? randomUUID(),
      };
    }
    return {
      ...next,
      version: old ? old.version + 1 : 1,
      "card-added-at": old?.["card-added-at"] ?? at,
      "card-updated-at": at,
      "content-version-id": randomUUID(),
    };
  });
  if (!details.length) details.push(...storedCardIssues(result));
  if (details.length) throw new AppError("BAD_REQUEST", "Some story elements are not valid.", { details });
  return result;
}
