"use client";

/**
 * "Check connection" on a payment gateway's row (tRPC paymentGateways.check; Stripe only, the
 * gateways whose adapter has a check): the keys' mode against the account's environment, and what
 * is wrong in words the owner can act on. It runs by itself once the row's keys are saved (the
 * row's updatedAt changes, or the row was just created) and on the button.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Badge, Button, ErrorAlert } from "@/components/ui";
import type { GATEWAY_PROVIDERS, TGatewayAdmin } from "@/server/subscriptions/payments/gateways.schema";

/** The providers with a connection check (their adapter's checkConnection). */
const CHECKED_PROVIDERS = new Set(["stripe"]);
/** Rows saved for the first time in this page: checked as soon as they appear. */
const justCreated = new Set<string>();

/** After a create: the new row checks its keys when it appears. */
export function checkWhenShown(gateway: TGatewayAdmin) {
  if (CHECKED_PROVIDERS.has(gateway.provider)) justCreated.add(gateway.provider);
}

export function GatewayConnectionCheck({ gateway }: { gateway: TGatewayAdmin }) {
  const trpc = useTRPC();
  const check = useMutation(trpc.paymentGateways.check.mutationOptions());
  const seen = useRef<string | null>(null);
  const { mutate } = check;
  const supported = CHECKED_PROVIDERS.has(gateway.provider);

  useEffect(() => {
    if (!supported) return;
    const saved = seen.current !== null && seen.current !== gateway.updatedAt;
    const created = seen.current === null && justCreated.delete(gateway.provider);
    seen.current = gateway.updatedAt;
    if (saved || created) mutate({ provider: gateway.provider as (typeof GATEWAY_PROVIDERS)[number] });
  }, [supported, gateway.updatedAt, gateway.provider, mutate]);

  if (!supported) return <span className="text-sm text-gray-500">No check for this gateway</span>;
  const result = check.data;
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="gateway-connection-check">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          size="sm"
          variant="secondary"
          loading={check.isPending}
          loadingText="Checking…"
          onClick={() => mutate({ provider: gateway.provider as (typeof GATEWAY_PROVIDERS)[number] })}
        >
          Check connection
        </Button>
        {result ? (
          <>
            <Badge tone={result.ok ? "green" : "red"}>{result.ok ? "Connected" : "Needs attention"}</Badge>
            {result.mode ? (
              <Badge tone={result.environmentMatches ? "gray" : "amber"}>
                {result.mode} mode{result.environmentMatches ? "" : ` · environment ${result.environment}`}
              </Badge>
            ) : null}
          </>
        ) : null}
      </div>
      <ErrorAlert error={check.error} />
      {result?.problems.length ? (
        <Alert tone="error">
          <ul className="list-disc space-y-1 pl-4">
            {result.problems.map((p) => (
              <li key={`${p.code}:${p.message}`} data-problem={p.code}>
                {p.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {result?.notes.length ? (
        <ul className="text-gray-600">
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
