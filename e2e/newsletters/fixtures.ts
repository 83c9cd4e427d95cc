/** What the newsletter specs share: the two window sizes, the page checks, and a newsletter made through tRPC. */
import type { APIRequestContext } from "@playwright/test";

import { trpcCall, trpcQuery } from "../fixtures";

/** The two window sizes and the page checks are the suite's own (../fixtures.ts). */
export { expectCleanPage, VIEWPORTS as SIZES } from "../fixtures";

/**
 * An opt-in newsletter with no plans and no digest, made with the dashboard's own tRPC call
 * (newsletters.create) by whoever the request is signed in as; from the demo sender unless
 * another is named.
 */
export async function createNewsletter(
  request: APIRequestContext,
  options: {
    name: string;
    slug: string;
    trackOpens?: boolean;
    trackClicks?: boolean;
    description?: string;
    sender?: { name: string; email: string; footer: string };
  },
): Promise<{ id: number }> {
  const sender = options.sender ?? {
    name: "The Demo Gazette",
    email: "news@demo.masthead.test",
    footer: "1 Main St, Springfield",
  };
  return trpcCall<{ id: number }>(request, "newsletters.create", {
    name: options.name,
    slug: options.slug,
    description: options.description ?? "",
    senderName: sender.name,
    senderEmail: sender.email,
    replyTo: "",
    design: { logoUrl: "", accentColor: "#112233", backgroundColor: "#ffffff", footer: sender.footer },
    audience: "OPT_IN",
    planIds: [],
    trackOpens: options.trackOpens ?? false,
    trackClicks: options.trackClicks ?? true,
    digestCollectionId: null,
    digestSchedule: null,
  });
}

/** The sender the widget and locale specs use: a publisher of their own, not the demo's. */
export const GAZETTE = { name: "The Gazette", email: "news@gazette.example", footer: "1 Main Street" } as const;

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
