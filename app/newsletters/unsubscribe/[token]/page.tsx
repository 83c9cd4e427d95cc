import type { Metadata } from "next";

import { LinkPageFrame, LinkProblem, lookUpLink, SUBMIT_CLASSES } from "../../link-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false }, referrer: "no-referrer" };

/**
 * /newsletters/unsubscribe/<token>: where a browser opening a mail's unsubscribe link lands. It names
 * the newsletter and asks; its button POSTs to /api/newsletters/unsubscribe/<token> (the one-click
 * URL), which unsubscribes and comes back here. Opening the page changes nothing.
 */
export default async function UnsubscribeNewsletterPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await lookUpLink(token, ["unsubscribe", "delivery"]);
  if (!found.ok) return <LinkProblem problem={found.problem} />;
  const { view } = found;
  if (view.status === "unsubscribed") {
    return (
      <LinkPageFrame heading="You are unsubscribed" publication={view.accountName}>
        <p data-testid="newsletter-link-status">
          {view.email} no longer receives <strong>{view.newsletterName}</strong>.
        </p>
      </LinkPageFrame>
    );
  }
  return (
    <LinkPageFrame heading="Unsubscribe" publication={view.accountName}>
      <p>
        Stop sending <strong>{view.newsletterName}</strong> to {view.email}?
      </p>
      <form method="post" action={`/api/newsletters/unsubscribe/${token}`}>
        <button type="submit" className={SUBMIT_CLASSES}>
          Unsubscribe
        </button>
      </form>
    </LinkPageFrame>
  );
}
