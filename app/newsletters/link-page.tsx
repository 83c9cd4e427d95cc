/**
 * The pages a newsletter mail's links open (/newsletters/confirm/<token>, /newsletters/unsubscribe/<token>):
 * they name the newsletter and ask with one button, which POSTs to the API (link scanners only GET,
 * so opening a page changes nothing). A malformed link and an unknown one each get a clear page.
 */
import type { ReactNode } from "react";

import { Card } from "@/components/ui";
import { getDb } from "@/server/db";
import { isAppError } from "@/server/errors";
import { describeNewsletterLink, type LinkView } from "@/server/newsletters/subscription-links";
import type { TNewsletterTokenPurpose } from "@/server/newsletters/tokens";

type LinkLookup = { ok: true; view: LinkView } | { ok: false; problem: "malformed" | "unknown" };

export async function lookUpLink(token: string, purposes: readonly TNewsletterTokenPurpose[]): Promise<LinkLookup> {
  try {
    return { ok: true, view: await describeNewsletterLink(await getDb(), { token, purposes }) };
  } catch (error) {
    if (isAppError(error) && error.code === "BAD_REQUEST") return { ok: false, problem: "malformed" };
    if (isAppError(error) && error.code === "NOT_FOUND") return { ok: false, problem: "unknown" };
    throw error;
  }
}

export function LinkPageFrame({
  heading,
  publication,
  children,
}: {
  heading: string;
  publication?: string;
  children: ReactNode;
}) {
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center px-4 py-10 sm:px-6">
      <div className="w-full max-w-md">
        {publication ? (
          <p className="text-center text-2xl font-bold tracking-tight break-words text-gray-900">{publication}</p>
        ) : null}
        <Card className="mt-6">
          <h1 className="text-lg font-semibold text-gray-900">{heading}</h1>
          <div className="mt-3 space-y-4 text-sm text-gray-700">{children}</div>
        </Card>
      </div>
    </main>
  );
}

export function LinkProblem({ problem }: { problem: "malformed" | "unknown" }) {
  return (
    <LinkPageFrame heading={problem === "malformed" ? "This link is incomplete" : "This link is not valid"}>
      <p>
        {problem === "malformed"
          ? "The link seems cut short. Open it again from the mail, or copy the whole link into the address bar."
          : "This link does not match any subscription. It may have been changed, or the subscription no longer exists."}
      </p>
    </LinkPageFrame>
  );
}

export const SUBMIT_CLASSES =
  "inline-flex min-h-11 items-center justify-center rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 focus-visible:outline-none";
