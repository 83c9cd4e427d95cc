/** The demo paywall's words (paywall-demo.tsx): error messages, the story's text, the meter. */

/** What a failed SDK or API call says, or a generic line. */
export function message(error: unknown): string {
  const e = error as { error?: { message?: string }; message?: string };
  return e?.error?.message ?? e?.message ?? "Something went wrong.";
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

/** "1 free story", "2 free stories", "0 free stories". */
export function freeStoriesLeft(n: number): string {
  return `${n} free ${n === 1 ? "story" : "stories"}`;
}
