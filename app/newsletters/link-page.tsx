/**
 * The pages a newsletter mail's links open (/newsletters/confirm/<token>, /newsletters/unsubscribe/<token>):
 * they name the newsletter and ask with one button, which POSTs to the API (link scanners only GET,
 * so opening a page changes nothing). A malformed link and an unknown one each get a clear page.
 * In the reader's language: this browser's choice, else the saved one of the reader the link names,
 * else Accept-Language, else the newsletter's account's default (app/member/reader-page.ts).
 */
import type { Metadata } from "next";
import { cache, type ReactNode } from "react";

import type { MemberKey } from "@/components/members/member-words";
import { ReaderShell } from "@/components/members/reader-shell";
import { Card } from "@/components/ui";
import { getDb } from "@/server/db";
import { isAppError } from "@/server/errors";
import { describeNewsletterLink, type LinkView } from "@/server/newsletters/subscription-links";
import type { TNewsletterTokenPurpose } from "@/server/newsletters/tokens";

import { readerPage, type ReaderPage } from "../member/reader-page";

type LinkLookup = { ok: true; view: LinkView } | { ok: false; problem: "malformed" | "unknown" };

/** The link's view (cached for the request: its metadata and its page read it). */
export const lookUpLink = cache(
  async (token: string, purposes: readonly TNewsletterTokenPurpose[]): Promise<LinkLookup> => {
    try {
      return { ok: true, view: await describeNewsletterLink(await getDb(), { token, purposes }) };
    } catch (error) {
      if (isAppError(error) && error.code === "BAD_REQUEST") return { ok: false, problem: "malformed" };
      if (isAppError(error) && error.code === "NOT_FOUND") return { ok: false, problem: "unknown" };
      throw error;
    }
  },
);

/** The page of a looked-up link: the link's account and reader, else the host's. */
function linkReaderPage(found: LinkLookup): Promise<ReaderPage> {
  return found.ok ? readerPage(found.view.accountId, found.view.readerLocale) : readerPage();
}

/** A link page's metadata: its title in the reader's language; no index, no Referer (the token is in the URL). */
export async function linkMetadata(found: LinkLookup, title: MemberKey): Promise<Metadata> {
  const { words } = await linkReaderPage(found);
  return { title: words.t(title), robots: { index: false }, referrer: "no-referrer" };
}

function LinkPageFrame({
  page,
  heading,
  publication,
  children,
}: {
  page: ReaderPage;
  heading: string;
  publication?: string;
  children: ReactNode;
}) {
  return (
    <ReaderShell page={page}>
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-10 sm:px-6">
        <div className="w-full max-w-md">
          {publication ? (
            <p className="text-center text-2xl font-bold tracking-tight break-words text-gray-900" dir="auto">
              {publication}
            </p>
          ) : null}
          <Card className="mt-6">
            <h1 className="text-lg font-semibold text-gray-900">{heading}</h1>
            <div className="mt-3 space-y-4 text-sm text-gray-700">{children}</div>
          </Card>
        </div>
      </main>
    </ReaderShell>
  );
}

function LinkProblem({ page, problem }: { page: ReaderPage; problem: "malformed" | "unknown" }) {
  const { t } = page.words;
  return (
    <LinkPageFrame page={page} heading={t(problem === "malformed" ? "link.malformedTitle" : "link.unknownTitle")}>
      <p>{t(problem === "malformed" ? "link.malformed" : "link.unknown")}</p>
    </LinkPageFrame>
  );
}

/** The reader's (masked) address and the newsletter's name, set apart from the sentence around them. */
function linkNames(view: LinkView): { email: ReactNode; newsletter: ReactNode } {
  return {
    email: <bdi dir="ltr">{view.email}</bdi>,
    newsletter: (
      <strong>
        <bdi>{view.newsletterName}</bdi>
      </strong>
    ),
  };
}

const SUBMIT_CLASSES =
  "inline-flex min-h-11 items-center justify-center rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 focus-visible:outline-none";

/** What a link page says: a title and its sentence (the reader's address and the newsletter named in it). */
type LinkWords = { title: MemberKey; text: MemberKey };

/**
 * A newsletter link's page: the problem of a malformed or unknown link; the settled state the
 * subscription's status is in (`settled`), said with its status test id; else the question, whose
 * button POSTs to /api/newsletters/<action>/<token>.
 */
export async function NewsletterLinkPage({
  token,
  purposes,
  action,
  ask,
  settled,
}: {
  token: string;
  purposes: readonly TNewsletterTokenPurpose[];
  action: "confirm" | "unsubscribe";
  ask: LinkWords & { button: MemberKey };
  settled: (status: LinkView["status"]) => LinkWords | null;
}) {
  const found = await lookUpLink(token, purposes);
  const page = await linkReaderPage(found);
  if (!found.ok) return <LinkProblem page={page} problem={found.problem} />;
  const { view } = found;
  const { t, rich } = page.words;
  const names = linkNames(view);
  const state = settled(view.status);
  if (state) {
    return (
      <LinkPageFrame page={page} heading={t(state.title)} publication={view.accountName}>
        <p data-testid="newsletter-link-status">{rich(state.text, names)}</p>
      </LinkPageFrame>
    );
  }
  return (
    <LinkPageFrame page={page} heading={t(ask.title)} publication={view.accountName}>
      <p>{rich(ask.text, names)}</p>
      <form method="post" action={`/api/newsletters/${action}/${token}`}>
        <button type="submit" className={SUBMIT_CLASSES}>
          {t(ask.button)}
        </button>
      </form>
    </LinkPageFrame>
  );
}
