import type { Metadata } from "next";

import { LinkPageFrame, LinkProblem, lookUpLink, SUBMIT_CLASSES } from "../../link-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Confirm your subscription",
  robots: { index: false },
  referrer: "no-referrer",
};

/**
 * /newsletters/confirm/<token>: the double opt-in mail's link. It asks; its button POSTs to
 * /api/newsletters/confirm/<token>, which confirms and comes back here.
 */
export default async function ConfirmNewsletterPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await lookUpLink(token, ["confirm"]);
  if (!found.ok) return <LinkProblem problem={found.problem} />;
  const { view } = found;
  if (view.status === "active") {
    return (
      <LinkPageFrame heading="You are subscribed" publication={view.accountName}>
        <p data-testid="newsletter-link-status">
          {view.email} receives <strong>{view.newsletterName}</strong>. Every mail has a link to unsubscribe.
        </p>
      </LinkPageFrame>
    );
  }
  if (view.status !== "pending") {
    return (
      <LinkPageFrame heading="This link is no longer needed" publication={view.accountName}>
        <p data-testid="newsletter-link-status">
          {view.email} has left <strong>{view.newsletterName}</strong> since this mail was sent, so it does not
          subscribe anyone. To subscribe again, sign up once more.
        </p>
      </LinkPageFrame>
    );
  }
  return (
    <LinkPageFrame heading="Confirm your subscription" publication={view.accountName}>
      <p>
        Confirm that {view.email} should receive <strong>{view.newsletterName}</strong>.
      </p>
      <form method="post" action={`/api/newsletters/confirm/${token}`}>
        <button type="submit" className={SUBMIT_CLASSES}>
          Confirm subscription
        </button>
      </form>
    </LinkPageFrame>
  );
}
