"use client";

/**
 * The page a signed "update your card" link opens (/member/card/<token>; the dunning e-mail and the
 * paywall's banner): the one subscription it names and its card form, or the gateway's hosted page.
 * No password or session: the link itself is the permission (server/subscriptions/self-service/card-link.ts).
 * The API writes the card's sentence in the link's reader's language, the page the rest.
 */
import { useEffect, useState } from "react";

import { Alert, buttonClasses, Card } from "@/components/ui";

import { CardForm } from "./card-form";
import { useWords } from "./member-i18n";
import { problemText } from "./problem-words";
import { sendJson, type Problem } from "./self-service-api";

type LinkedCard = {
  id: number;
  plan_name: string;
  summary: string;
  payment_type: string;
  can_update_payment_method: boolean;
  payment_method_update: { kind: "form" } | { kind: "hosted"; provider_name: string; href: string } | null;
};

export function CardLink({ token }: { token: string }) {
  const { t, rich } = useWords();
  const api = `/api/member/card-link/${encodeURIComponent(token)}`;
  const [card, setCard] = useState<LinkedCard | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    void (async () => {
      const res = await sendJson("GET", api);
      if (res.ok) setCard(res.body as LinkedCard);
      else setProblem(res.problem);
    })();
  }, [api]);

  if (!card)
    return problem ? (
      <Alert tone="error">
        {problemText(t, problem, { UNAUTHORIZED: "cardLink.invalid", BAD_REQUEST: "cardLink.invalid" })}
      </Alert>
    ) : (
      <p className="text-sm">{t("common.loading")}</p>
    );
  const way = card.payment_method_update;
  return (
    <Card className="space-y-3 p-5">
      <h2 className="text-base font-semibold text-gray-900" dir="auto">
        {card.plan_name}
      </h2>
      <p className="text-sm text-gray-700">{card.summary}</p>
      {done ? (
        <Alert tone="success">{t("cardLink.saved")}</Alert>
      ) : !card.can_update_payment_method || !way ? (
        <Alert tone="info">{t("cardLink.cannot")}</Alert>
      ) : way.kind === "hosted" ? (
        <a href={way.href} className={buttonClasses({ variant: "primary" })}>
          {rich("payment.hostedLink", { provider: <bdi>{way.provider_name}</bdi> })}
        </a>
      ) : (
        <CardForm paymentType={card.payment_type} url={api} onSaved={() => setDone(true)} />
      )}
    </Card>
  );
}
