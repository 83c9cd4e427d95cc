import { linkMetadata, lookUpLink, NewsletterLinkPage } from "../../link-page";

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
  return (
    <NewsletterLinkPage
      token={(await params).token}
      purposes={PURPOSES}
      action="confirm"
      ask={{ title: "confirm.title", text: "confirm.ask", button: "confirm.button" }}
      settled={(status) => {
        if (status === "active") return { title: "confirm.doneTitle", text: "confirm.done" };
        if (status !== "pending") return { title: "confirm.staleTitle", text: "confirm.stale" };
        return null;
      }}
    />
  );
}
