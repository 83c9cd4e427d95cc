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

const PURPOSES = ["confirm"] as const;

export async function generateMetadata({ params }: Params) {
  return linkMetadata(await lookUpLink((await params).token, PURPOSES), "confirm.title");
}

/**
 * /newsletters/confirm/<token>: the double opt-in mail's link. It asks; its button POSTs to
 * /api/newsletters/confirm/<token>, which confirms and comes back here.
 */
export default async function ConfirmNewsletterPage({ params }: Params) {
  const { token } = await params;
  const found = await lookUpLink(token, PURPOSES);
  const page = await linkReaderPage(found);
  if (!found.ok) return <LinkProblem page={page} problem={found.problem} />;
  const { view } = found;
  const { t, rich } = page.words;
  const names = linkNames(view);
  if (view.status === "active") {
    return (
      <LinkPageFrame page={page} heading={t("confirm.doneTitle")} publication={view.accountName}>
        <p data-testid="newsletter-link-status">{rich("confirm.done", names)}</p>
      </LinkPageFrame>
    );
  }
  if (view.status !== "pending") {
    return (
      <LinkPageFrame page={page} heading={t("confirm.staleTitle")} publication={view.accountName}>
        <p data-testid="newsletter-link-status">{rich("confirm.stale", names)}</p>
      </LinkPageFrame>
    );
  }
  return (
    <LinkPageFrame page={page} heading={t("confirm.title")} publication={view.accountName}>
      <p>{rich("confirm.ask", names)}</p>
      <form method="post" action={`/api/newsletters/confirm/${token}`}>
        <button type="submit" className={SUBMIT_CLASSES}>
          {t("confirm.button")}
        </button>
      </form>
    </LinkPageFrame>
  );
}
