"use client";

/**
 * The registration wall of the demo paywall (docs/subscriptions.md "Registration wall"), shown
 * when the access grant says `data.wall` is "registration": free sign-up by e-mail through the
 * member API the member pages use (POST /api/auth/v1/signup), with an unticked "Also send me the
 * newsletter" box; only a ticked box names the newsletter in the sign-up, which joins it with a
 * consent record. A reader with an account signs in with the publication's own login (the demo's
 * reader bar). Once signed up, `onRegistered` signs the reader in (the demo: a reader JWT for the
 * e-mail, as a publisher's login gives one) and the page checks again: the story reads on, on the
 * paid meter. Every word is the paywall catalogue's (`access.register.*`).
 */
import { useState, type FormEvent } from "react";

import type { DemoWords } from "./paywall-words";

const PASSWORD_MIN = 8;

export type WallNewsletter = { slug: string; name: string };

export function RegistrationWall({
  words,
  newsletter,
  readerId,
  onRegistered,
}: {
  words: DemoWords;
  newsletter: WallNewsletter | null;
  /** The browser's reader id (the SDK's): sent with the sign-up so the story's wall gets the registration. */
  readerId: string | null;
  onRegistered: (email: string) => Promise<void>;
}) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : "";
    };
    const email = text("email").trim();
    const password = text("password");
    const joins = newsletter !== null && form.get("newsletter") === "on";
    setPending(true);
    setProblem(null);
    try {
      const response = await fetch("/api/auth/v1/signup", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({
          email,
          password,
          newsletters: joins ? [newsletter.slug] : [],
          ...(readerId ? { readerId } : {}),
        }),
      });
      if (!response.ok) {
        setProblem(words.t(response.status === 409 ? "access.register.emailTaken" : "access.register.failed"));
        return;
      }
      await onRegistered(email);
    } catch {
      setProblem(words.t("access.register.failed"));
    } finally {
      setPending(false);
    }
  }

  return (
    <section
      aria-labelledby="registration-wall-title"
      data-testid="registration-wall"
      className="rounded-lg border-2 border-brand-700 bg-white p-5"
    >
      <h2 id="registration-wall-title" className="text-xl font-bold">
        {words.t("access.register.title")}
      </h2>
      <p className="mt-1 text-gray-700">{words.t("access.register.text")}</p>
      <form onSubmit={(event) => void submit(event)} className="mt-4 space-y-3 text-sm">
        <label className="flex flex-col">
          <span className="font-medium">{words.t("access.register.email")}</span>
          <input
            name="email"
            type="email"
            required
            dir="ltr"
            autoComplete="email"
            className="mt-1 min-h-11 rounded border border-gray-400 bg-white px-2 py-1 sm:min-h-9"
          />
        </label>
        <div className="flex flex-col">
          <label className="flex flex-col">
            <span className="font-medium">{words.t("access.register.password")}</span>
            <input
              name="password"
              type="password"
              required
              dir="ltr"
              minLength={PASSWORD_MIN}
              autoComplete="new-password"
              aria-describedby="registration-wall-password-hint"
              className="mt-1 min-h-11 rounded border border-gray-400 bg-white px-2 py-1 sm:min-h-9"
            />
          </label>
          <span id="registration-wall-password-hint" className="mt-1 text-gray-700">
            {words.t("access.register.passwordHint", { min: PASSWORD_MIN })}
          </span>
        </div>
        {newsletter ? (
          <label className="flex items-start gap-2">
            <input name="newsletter" type="checkbox" className="mt-1 size-4" />
            <span>{words.t("access.register.newsletter", { newsletter: newsletter.name })}</span>
          </label>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          className="min-h-11 rounded bg-brand-700 px-3 py-1.5 font-semibold text-white disabled:opacity-50 sm:min-h-9"
        >
          {words.t("access.register.submit")}
        </button>
        {problem ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-red-900">
            {problem}
          </p>
        ) : null}
      </form>
      <p className="mt-4 text-sm text-gray-700">
        {words.t("access.register.haveAccount")} {words.t("access.register.publisherLogin")}
      </p>
    </section>
  );
}
