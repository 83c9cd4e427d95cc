"use client";

/**
 * A subscription's new card, as a reader gives it: the field (a test card's name on the demo
 * gateway, a token from the gateway's payment form otherwise) and Save, which PUTs it to `url`.
 * One form for the self-service page and the page a signed card link opens.
 */
import { useState, type ReactNode } from "react";

import { Button, FormField, Input } from "@/components/ui";

import { useWords } from "./member-i18n";
import { problemText } from "./problem-words";
import { sendJson, type Problem } from "./self-service-api";

export function CardForm({
  paymentType,
  url,
  onSaved,
  children,
}: {
  paymentType: string;
  url: string;
  /** Once the card is saved. */
  onSaved: () => Promise<void> | void;
  /** More buttons beside Save. */
  children?: ReactNode;
}) {
  const { t } = useWords();
  const demo = paymentType === "demo_test";
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [pending, setPending] = useState(false);

  async function save() {
    setPending(true);
    setProblem(null);
    const raw = value.trim();
    const res = await sendJson("PUT", url, { payment_token: demo ? `demo_method_${raw.toLowerCase()}` : raw });
    setPending(false);
    if (res.ok) await onSaved();
    else setProblem(res.problem);
  }

  return (
    <>
      <FormField
        label={demo ? t("payment.testCard") : t("payment.newCard")}
        hint={demo ? t("payment.testHint") : t("payment.newCardHint")}
        error={
          problem
            ? problemText(t, problem, {
                UNPROCESSABLE: "payment.refused",
                BAD_REQUEST: "payment.refused",
                NOT_FOUND: "card.notFound",
                UNAUTHORIZED: url.includes("/card-link/") ? "cardLink.invalid" : "common.signedOut",
              })
            : undefined
        }
      >
        <Input value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" dir="ltr" />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" loading={pending} loadingText={t("payment.saving")} onClick={() => void save()}>
          {t("payment.save")}
        </Button>
        {children}
      </div>
    </>
  );
}
