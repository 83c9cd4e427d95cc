"use client";

/**
 * The "Newsletters" section of the readers' self-service page: each newsletter the reader may join,
 * with a switch. Through /api/member/newsletters (the session cookie). Joining with a verified
 * e-mail is immediate; otherwise the server sends a mail to confirm, and the newsletter shows as
 * waiting for it.
 */
import { useCallback, useEffect, useState } from "react";

import { Alert, Badge } from "@/components/ui";
import type { TMemberNewsletter } from "@/server/newsletters/subscriptions.schema";

import { useWords } from "./member-i18n";
import { problemText } from "./problem-words";
import { sendJson } from "./self-service-api";

export function NewsletterSection() {
  const { t } = useWords();
  const [list, setList] = useState<TMemberNewsletter[] | null>(null);
  const [failed, setFailed] = useState(false);
  // The newsletter being changed and the reader's choice, shown on the switch until the answer.
  const [busy, setBusy] = useState<{ slug: string; subscribed: boolean } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    const res = await sendJson("GET", "/api/member/newsletters");
    if (!res.ok) return setFailed(true);
    setList((res.body as { newsletters: TMemberNewsletter[] }).newsletters);
  }, []);
  useEffect(() => {
    // load() sets state only after the server's answer: an external system's callback.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  async function toggle(n: TMemberNewsletter, subscribed: boolean) {
    setBusy({ slug: n.slug, subscribed });
    setProblem(null);
    const res = await sendJson("PUT", `/api/member/newsletters/${encodeURIComponent(n.slug)}`, { subscribed });
    setBusy(null);
    if (!res.ok)
      return setProblem(
        problemText(t, res.problem, { UNPROCESSABLE: "news.needEmail", NOT_FOUND: "news.changeFailed" }),
      );
    const updated = (res.body as { newsletter: TMemberNewsletter }).newsletter;
    setList((current) => current?.map((item) => (item.slug === updated.slug ? updated : item)) ?? null);
  }

  return (
    <section aria-labelledby="newsletters-heading" className="space-y-3">
      <h2 id="newsletters-heading" className="text-base font-semibold text-gray-900">
        {t("news.title")}
      </h2>
      {failed ? (
        <Alert tone="error">{t("news.loadFailed")}</Alert>
      ) : list === null ? (
        <p className="text-sm text-gray-600">{t("news.loading")}</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-gray-600">{t("news.none")}</p>
      ) : (
        <>
          {/* The consent wording the server records with a join (server/privacy/consent/wording.ts). */}
          <p className="text-sm text-gray-600">{t("consent.newsletterNote")}</p>
          <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white">
            {list.map((n) => {
              const changing = busy?.slug === n.slug;
              const on = changing ? busy.subscribed : n.status === "active" || n.status === "pending";
              return (
                <li
                  key={n.slug}
                  className="flex items-start justify-between gap-3 px-4 py-3"
                  data-testid="newsletter-choice"
                >
                  <div className="min-w-0">
                    <p className="text-sm font-medium break-words text-gray-900" dir="auto">
                      {n.name}
                    </p>
                    {n.description ? (
                      <p className="text-xs break-words text-gray-600" dir="auto">
                        {n.description}
                      </p>
                    ) : null}
                    <p className="mt-1">
                      {n.status === "pending" ? (
                        <Badge tone="amber">{t("news.pending")}</Badge>
                      ) : n.status === "active" ? (
                        <Badge tone="green">{t("news.active")}</Badge>
                      ) : n.status === "unsubscribed" ? (
                        <Badge tone="gray">{t("news.unsubscribed")}</Badge>
                      ) : null}
                    </p>
                  </div>
                  <label className="flex shrink-0 items-center gap-2 text-sm text-gray-700">
                    <input
                      type="checkbox"
                      role="switch"
                      className="size-5 rounded text-brand-600 focus:ring-brand-600"
                      checked={on}
                      disabled={changing}
                      aria-busy={changing}
                      aria-label={t("news.receive", { name: n.name })}
                      onChange={(event) => void toggle(n, event.target.checked)}
                    />
                    <span aria-hidden="true">{on ? t("news.on") : t("news.off")}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {problem ? <Alert tone="error">{problem}</Alert> : null}
    </section>
  );
}
