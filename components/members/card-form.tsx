"use client";

/**
 * A subscription's new card, as a reader gives it: the field (a test card's name on the demo
 * gateway, a token from the gateway's payment form otherwise) and Save, which PUTs it to `url`.
 * One form for the self-service page and the page a signed card link opens.
 */
import { useState, type ReactNode } from "react";

import { Button, FormField, Input } from "@/components/ui";

import { sendJson, type Problem } from "./self-service-api";

export function CardForm({
  paymentType,
  url,
  onSaved,
  children,
}: {
  paymentType: string;
  url: string;
  /** With the API's message once the card is saved. */
  onSaved: (message: string) => Promise<void> | void;
  /** More buttons beside Save. */
  children?: ReactNode;
}) {
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
    if (res.ok) await onSaved((res.body as { message: string }).message);
    else setProblem(res.problem);
  }

  return (
    <>
      <FormField
        label={demo ? "Test card" : "New card"}
        hint={
          demo
            ? 'The demo gateway takes any name, e.g. "visa-4242"; "decline" is refused.'
            : "From the payment form of your card's gateway."
        }
        error={problem?.message}
      >
        <Input value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" loading={pending} loadingText="Saving…" onClick={() => void save()}>
          Save payment method
        </Button>
        {children}
      </div>
    </>
  );
}
