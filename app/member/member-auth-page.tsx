/**
 * The frame of the member pages (login, sign-up, forgot and reset password), on the publisher's
 * host: the publication's name (found by the host, as the member API finds it) and the form.
 */
import { headers } from "next/headers";

import { MemberAuthForm } from "@/components/members/member-auth-form";
import { safeReturnTo } from "@/components/members/safe-return-to";
import { Card } from "@/components/ui";
import { getDb } from "@/server/db";
import { resolvePublisher } from "@/server/publishing/publisher";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function publicationName(): Promise<string | null> {
  try {
    return (await resolvePublisher(await getDb(), { host: (await headers()).get("host") })).name;
  } catch {
    return null; // no publisher on this host: the API answers that when the form is sent
  }
}

/** The frame every member page shares: the publication's name, a heading, a line under it, and the card. */
export async function MemberPageFrame({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: React.ReactNode;
}) {
  const name = await publicationName();
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center px-4 py-10 sm:px-6">
      <div className="w-full max-w-sm">
        <div className="text-center">
          {name ? <p className="text-2xl font-bold tracking-tight text-gray-900">{name}</p> : null}
          <h1 className="mt-4 text-lg font-semibold text-gray-900">{title}</h1>
          <p className="mt-1 text-sm text-gray-600">{intro}</p>
        </div>
        <Card className="mt-6 p-5 sm:p-6">{children}</Card>
      </div>
    </main>
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
      title={mode === "login" ? "Sign in" : "Create your account"}
      intro={
        mode === "login"
          ? "Sign in to comment and keep your reading in one place."
          : "One account for comments and more."
      }
    >
      <MemberAuthForm mode={mode} returnTo={returnTo} />
    </MemberPageFrame>
  );
}
