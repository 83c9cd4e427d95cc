"use client";

/**
 * The demo reader's bar on the paywall demo (components/demo/paywall-demo.tsx): who reads, the link
 * to manage their subscriptions and Sign out; or the demo's sign-in (a JWT minted for any e-mail,
 * demo publisher and DEMO_TOOLS only); or, with the demo tools off, a guest.
 */
import { useState } from "react";

import type { DemoWords } from "./paywall-words";

export type Reader = { email: string; jwt: string; expiresAt: string };

export function ReaderBar({
  reader,
  accountKey,
  demoTools,
  busy,
  words,
  onSignIn,
  onSignOut,
}: {
  reader: Reader | null;
  accountKey: string;
  demoTools: boolean;
  busy: boolean;
  words: DemoWords;
  onSignIn: (email: string) => void;
  onSignOut: () => void;
}) {
  const [email, setEmail] = useState("");
  return (
    <section
      aria-label={words.t("demo.demoReader")}
      className="mb-6 rounded-md border border-gray-200 bg-gray-100 p-4 text-sm"
    >
      {reader ? (
        <p>
          {words.rich(
            "demo.signedInAs",
            { email: reader.email },
            {
              email: (text) => (
                <strong>
                  <bdi>{text}</bdi>
                </strong>
              ),
            },
          )}{" "}
          {/* The publisher's reader manages their subscriptions with the same JWT (a fragment: never sent to a server). */}
          <a
            href={`/member/subscriptions#${new URLSearchParams({ key: accountKey, jwt: reader.jwt }).toString()}`}
            className="text-brand-700 underline"
          >
            {words.t("demo.manageSubscriptions")}
          </a>{" "}
          <button type="button" onClick={onSignOut} className="text-brand-700 underline">
            {words.t("demo.signOut")}
          </button>
        </p>
      ) : demoTools ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSignIn(email);
          }}
          className="flex flex-wrap items-end gap-2"
        >
          <label className="flex min-w-0 flex-col">
            <span className="font-medium">{words.t("demo.readerEmail")}</span>
            <input
              type="email"
              required
              dir="ltr"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className="mt-1 min-w-0 rounded border border-gray-400 bg-white px-2 py-1"
            />
          </label>
          <button type="submit" disabled={busy} className="rounded bg-brand-700 px-3 py-1.5 font-semibold text-white">
            {words.t("access.signIn")}
          </button>
          <span className="w-full text-gray-700">{words.t("demo.signInTool")}</span>
        </form>
      ) : (
        <p>{words.t("demo.guest")}</p>
      )}
    </section>
  );
}
