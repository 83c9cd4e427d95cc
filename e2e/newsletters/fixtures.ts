/** What the newsletter specs share: the two window sizes, the page checks, and a newsletter made through tRPC. */
import type { APIRequestContext, Page } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, trpcCall, trpcQuery } from "../fixtures";

export const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** The page does not scroll sideways and has no serious or critical axe violations. */
export async function expectCleanPage(page: Page, what: string): Promise<void> {
  await expectNoHorizontalPageScroll(page, what);
  expect(await seriousViolations(page), what).toEqual([]);
}

/**
 * An opt-in newsletter from the demo sender with no plans and no digest, made with the dashboard's
 * own tRPC call (newsletters.create) by whoever the request is signed in as.
 */
export async function createNewsletter(
  request: APIRequestContext,
  options: { name: string; slug: string; trackOpens: boolean },
): Promise<{ id: number }> {
  return trpcCall<{ id: number }>(request, "newsletters.create", {
    name: options.name,
    slug: options.slug,
    description: "",
    senderName: "The Demo Gazette",
    senderEmail: "news@demo.masthead.test",
    replyTo: "",
    design: { logoUrl: "", accentColor: "#112233", backgroundColor: "#ffffff", footer: "1 Main St, Springfield" },
    audience: "OPT_IN",
    planIds: [],
    trackOpens: options.trackOpens,
    trackClicks: true,
    digestCollectionId: null,
    digestSchedule: null,
  });
}

/**
 * Sets the demo's site URL (Settings → Site) through the dashboard's tRPC calls, as the owner the
 * request is signed in as; answers what it was, for putting it back. Story mails link to the story
 * on the site, so sending is refused while it is unset (the demo seeds Masthead's own address).
 */
export async function setSiteUrl(request: APIRequestContext, siteUrl: string): Promise<string> {
  const view = await trpcQuery<{ settings: Record<string, unknown> & { siteUrl: string } }>(
    request,
    "settings.get",
    undefined,
  );
  await trpcCall(request, "settings.update", { ...view.settings, siteUrl });
  return view.settings.siteUrl;
}
