import {
  linkMetadata,
  linkNames,
  LinkPageFrame,
  LinkProblem,
  linkReaderPage,
  lookUpLink,
  SUBMIT_CLASSES,
} from "../../link-page";

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
  const { token } = await params;
  const found = await lookUpLink(token, PURPOSES);
  const page = await linkReaderPage(found);
  if (!found.ok) return <LinkProblem page={page} problem={found.problem} />;
  const { view } = found;
  const { t, rich } = page.words;
  const names = linkNames(view);
  if (view.status === "unsubscribed") {
    return (
      <LinkPageFrame page={page} heading={t("unsub.doneTitle")} publication={view.accountName}>
        <p data-testid="newsletter-link-status">{rich("unsub.done", names)}</p>
      </LinkPageFrame>
    );
  }
  return (
    <LinkPageFrame page={page} heading={t("unsub.title")} publication={view.accountName}>
      <p>{rich("unsub.ask", names)}</p>
      <form method="post" action={`/api/newsletters/unsubscribe/${token}`}>
        <button type="submit" className={SUBMIT_CLASSES}>
          {t("unsub.button")}
        </button>
      </form>
    </LinkPageFrame>
  );
}
