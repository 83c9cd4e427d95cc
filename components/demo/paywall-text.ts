/** The demo paywall's words about errors and the story's text (paywall-demo.tsx). */
import type { DemoWords } from "./paywall-words";

/** SDK errors whose message the SDK (or Stripe.js) already wrote in the reader's locale. */
const READER_WORDED = new Set(["PAYMENT_FAILED", "PAYMENT_CANCELLED", "GATEWAY_UNAVAILABLE"]);

/** What a failed SDK or API call says to the reader: the SDK's own words, else one line of ours. */
export function message(error: unknown, words: DemoWords): string {
  const e = error as { error?: { code?: string; message?: string } } | null;
  if (e?.error?.message && READER_WORDED.has(e.error.code ?? "")) return e.error.message;
  return words.t("demo.error");
}

/** The story's text paragraphs from a content API story, less the first (already on the page). */
export function storyParagraphs(story: unknown): string[] {
  const out: string[] = [];
  const cards = (story as { cards?: unknown[] })?.cards ?? [];
  for (const card of cards)
    for (const element of ((card as { "story-elements"?: unknown[] })["story-elements"] ?? []) as {
      type?: string;
      text?: string;
    }[])
      if (element.type === "text" && element.text) {
        const text = new DOMParser().parseFromString(element.text, "text/html").body.textContent?.trim();
        if (text) out.push(text);
      }
  return out.slice(1); // the first paragraph is already on the page
}
