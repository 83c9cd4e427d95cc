"use client";

/**
 * Pause a live recurring subscription for 1 to 12 of its periods (subscriberSubscriptions.pause,
 * server/subscriptions/recurring/staff-pause.ts), after a confirmation: shown on the subscription's detail
 * for revenue staff; nothing for a subscription that cannot be paused.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import { Button, ErrorAlert, FormField, Select, useConfirm } from "@/components/ui";
import { periodInWords } from "@/server/subscriptions/catalogue/catalogue.schema";

type TSubscriptionWire = RouterOutputs["subscriberSubscriptions"]["get"]["subscription"];

const PERIODS = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

export function PauseForm({ s, onPaused }: { s: TSubscriptionWire; onPaused: (until: string) => Promise<unknown> }) {
  const trpc = useTRPC();
  const confirm = useConfirm();
  const [periods, setPeriods] = useState("1");
  const pause = useMutation(
    trpc.subscriberSubscriptions.pause.mutationOptions({ onSuccess: (applied) => onPaused(applied.until) }),
  );
  if (!s.recurring || s.status !== "active" || s.cancelled_at || s.in_grace_period) return null;

  const onPause = async () => {
    const count = Number(periods);
    const ok = await confirm({
      title: `Pause #${s.id} for ${periodInWords(count * s.duration_length, s.duration_unit)}?`,
      body: "It does not renew at the end of the period already paid for; the reader has no access during the pause, then it resumes and is charged.",
      confirmLabel: "Pause",
      tone: "primary",
    });
    if (ok) pause.mutate({ id: s.id, periods: count });
  };

  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void onPause();
      }}
    >
      <ErrorAlert error={pause.error} />
      <FormField label="Pause for (periods)">
        <Select value={periods} onChange={(e) => setPeriods(e.target.value)} options={PERIODS} />
      </FormField>
      <Button type="submit" variant="secondary" loading={pause.isPending} loadingText="Pausing…">
        Pause
      </Button>
    </form>
  );
}
