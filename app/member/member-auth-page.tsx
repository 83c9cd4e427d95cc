/**
 * The frame of the member pages (login, sign-up, forgot and reset password), on the publisher's
 * host: the publication's name (found by the host, as the member API finds it) and the form, in
 * the reader's language (app/member/reader-page.ts).
 */
import type { Metadata } from "next";

import { MemberAuthForm } from "@/components/members/member-auth-form";
import type { MemberKey } from "@/components/members/member-words";
import { ReaderShell } from "@/components/members/reader-shell";
import { safeReturnTo } from "@/components/members/safe-return-to";
import { Card } from "@/components/ui";

import { readerPage } from "./reader-page";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A member page's metadata: its title in the reader's language, kept out of search engines. */
export async function memberMetadata(title: MemberKey, extra: Metadata = {}): Promise<Metadata> {
  const { words } = await readerPage();
  return { title: words.t(title), robots: { index: false }, ...extra };
}

/** The frame every member page shares: the publication's name, a heading, a line under it, and the card. */
export async function MemberPageFrame({
  titleKey,
  introKey,
  children,
}: {
  titleKey: MemberKey;
  introKey: MemberKey;
  children: React.ReactNode;
}) {
  const page = await readerPage();
  const name = page.publisher?.name;
  return (
    <ReaderShell page={page}>
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-10 sm:px-6">
        <div className="w-full max-w-sm">
          <div className="text-center">
            {name ? (
              <p className="text-2xl font-bold tracking-tight break-words text-gray-900" dir="auto">
                {name}
              </p>
            ) : null}
            <h1 className="mt-4 text-lg font-semibold text-gray-900">{page.words.t(titleKey)}</h1>
            <p className="mt-1 text-sm text-gray-600">{page.words.t(introKey)}</p>
          </div>
          <Card className="mt-6 p-5 sm:p-6">{children}</Card>
        </div>
      </main>
    </ReaderShell>
  );
}

/** The `return_to` of a member page's query, made safe (a path on this site). */
export async function returnToOf(searchParams: SearchParams): Promise<string> {
  const raw = (await searchParams).return_to;
  return safeReturnTo(Array.isArray(raw) ? raw[0] : raw);
}

export async function MemberAuthPage({ mode, searchParams }: { mode: "login" | "signup"; searchParams: SearchParams }) {
  const returnTo = await returnToOf(searchParams);
  return (
    <MemberPageFrame
      titleKey={mode === "login" ? "login.title" : "signup.title"}
      introKey={mode === "login" ? "login.intro" : "signup.intro"}
    >
      <MemberAuthForm mode={mode} returnTo={returnTo} />
    </MemberPageFrame>
  );
}
