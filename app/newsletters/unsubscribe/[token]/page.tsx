import { linkMetadata, lookUpLink, NewsletterLinkPage } from "../../link-page";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

const PURPOSES = ["unsubscribe", "delivery"] as const;

export async function generateMetadata({ params }: Params) {
  return linkMetadata(await lookUpLink((await params).token, PURPOSES), "unsub.title");
}

/**
 * /newsletters/unsubscribe/<token>: where a browser opening a mail's unsubscribe link lands. It names
 * the newsletter and asks; its button POSTs to /api/newsletters/unsubscribe/<token> (the one-click
 * URL), which unsubscribes and comes back here. Opening the page changes nothing.
 */
export default async function UnsubscribeNewsletterPage({ params }: Params) {
  return (
    <NewsletterLinkPage
      token={(await params).token}
      purposes={PURPOSES}
      action="unsubscribe"
      ask={{ title: "unsub.title", text: "unsub.ask", button: "unsub.button" }}
      settled={(status) => (status === "unsubscribed" ? { title: "unsub.doneTitle", text: "unsub.done" } : null)}
    />
  );
}
