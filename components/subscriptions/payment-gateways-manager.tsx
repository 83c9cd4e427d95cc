"use client";

/**
 * Payment gateways in the dashboard (REVENUE staff): an account's credentials per gateway
 * (tRPC paymentGateways.*). Secrets are write-only: typed in, never shown again; the list shows
 * the last four characters, and an edit that leaves a secret empty keeps the saved one. Each row
 * gives the webhook URL to paste into the gateway's own dashboard, and (Stripe) a connection check
 * that runs after each save (gateway-connection-check.tsx).
 */
import { defineManager, type FormValues } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { checkWhenShown, GatewayConnectionCheck } from "@/components/subscriptions/gateway-connection-check";
import { Badge, Input } from "@/components/ui";
import { ownValue } from "@/server/own-keys";
import {
  GATEWAY_PROVIDERS,
  ZUpsertGatewayInput,
  type TGatewayAdmin,
} from "@/server/subscriptions/payments/gateways.schema";

import { yesNo } from "./form-helpers";

type GatewayValues = FormValues & {
  provider: string;
  environment: string;
  appKey: string;
  secret: string;
  webhookSecret: string;
  enabled: string;
  /** Stripe Tax's boxes, joined by commas: "on", "inclusive". */
  stripeTax: string;
};

const LABELS: Record<string, string> = { razorpay: "Razorpay", stripe: "Stripe" };
const label = (provider: string) => ownValue(LABELS, provider) ?? provider;
const webhookUrl = (g: TGatewayAdmin) =>
  `${typeof window === "undefined" ? "" : window.location.origin}${g.webhookPath}`;
const hint = (saved: string | null | undefined) =>
  saved === undefined || saved === null ? "" : saved ? `…${saved}` : "saved";

/** A secret's input: a password field, never filled from the server. */
function SecretInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Input
      type="password"
      autoComplete="new-password"
      spellCheck={false}
      className="font-mono"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

const taxBoxes = (v: GatewayValues) => new Set(v.stripeTax.split(",").filter(Boolean));
const STRIPE_TAX_OPTIONS = [
  { value: "on", label: "Stripe Tax: Stripe computes each checkout's tax (instead of the tax rules)" },
  { value: "inclusive", label: "Prices include the tax (where no tax rule of the reader's country says otherwise)" },
] as const;
const stripeTaxValue = (g: TGatewayAdmin) =>
  [g.stripeTax ? "on" : "", g.stripeTaxInclusive ? "inclusive" : ""].filter(Boolean).join(",");

const toInput = (v: GatewayValues) => ({
  provider: v.provider as (typeof GATEWAY_PROVIDERS)[number],
  environment: v.environment as "live" | "sandbox",
  appKey: v.appKey.trim(),
  secret: v.secret,
  webhookSecret: v.webhookSecret,
  enabled: v.enabled === "yes",
  ...(v.provider === "stripe"
    ? { stripeTax: taxBoxes(v).has("on"), stripeTaxInclusive: taxBoxes(v).has("inclusive") }
    : {}),
});

const gateways = defineManager({
  procedures: (trpc) => ({
    list: trpc.paymentGateways.list,
    create: trpc.paymentGateways.save,
    update: trpc.paymentGateways.save,
    delete: trpc.paymentGateways.delete,
  }),
  listInput: () => undefined,
  rows: (data) => ({ rows: data }),
}).with<GatewayValues>({
  noun: { one: "payment gateway", many: "payment gateways" },
  title: "Payment gateways",
  emptyText: "No payment gateway yet: readers can only be given subscriptions (manual or sponsored).",
  rowId: (g) => GATEWAY_PROVIDERS.indexOf(g.provider as (typeof GATEWAY_PROVIDERS)[number]) + 1,
  rowLabel: (g) => label(g.provider),
  rowTestId: "gateway-row",
  columns: [
    {
      header: "Gateway",
      cell: (g) => (
        <span className="flex flex-wrap items-center gap-2">
          {label(g.provider)}
          <Badge tone={g.enabled ? "green" : "gray"}>{g.enabled ? "Enabled" : "Disabled"}</Badge>
          <Badge tone={g.environment === "live" ? "amber" : "gray"}>{g.environment}</Badge>
          {g.stripeTax ? <Badge tone="green">Stripe Tax</Badge> : null}
        </span>
      ),
    },
    { header: "App key", cell: (g) => <code className="break-all">{g.appKey}</code> },
    {
      header: "Secrets",
      cell: (g) => (
        <span className="text-sm">
          Secret <span className="whitespace-nowrap">{hint(g.secretHint)}</span>
          <br />
          Webhook secret{" "}
          {g.hasWebhookSecret ? (
            <span className="whitespace-nowrap">{hint(g.webhookSecretHint)}</span>
          ) : (
            "not set (webhooks refused)"
          )}
        </span>
      ),
    },
    {
      header: "Webhook URL",
      cell: (g) => (
        <code className="text-xs break-all" data-testid="gateway-webhook-url">
          {webhookUrl(g)}
        </code>
      ),
    },
    { header: "Connection", cell: (g) => <GatewayConnectionCheck gateway={g} /> },
  ],
  fields: [
    {
      name: "provider",
      kind: "select",
      label: "Gateway",
      only: "create",
      options: () => GATEWAY_PROVIDERS.map((p) => ({ value: p, label: label(p) })),
    },
    {
      name: "environment",
      kind: "radio",
      label: "Environment",
      options: [
        { value: "sandbox", label: "Sandbox (test keys)" },
        { value: "live", label: "Live" },
      ],
    },
    {
      name: "appKey",
      kind: "text",
      label: "App key (key id)",
      required: true,
      mono: true,
      maxLength: 200,
      hint: "Razorpay: Settings → API Keys, the Key Id (rzp_test_… or rzp_live_…). Stripe: Developers → API keys, the publishable key (pk_test_… or pk_live_…).",
    },
    {
      name: "secret",
      kind: "custom",
      label: "Secret (key secret)",
      render: (props) => <SecretInput {...props} />,
      hint: ({ editing }) =>
        editing
          ? `Saved (${hint(editing.secretHint)}). Leave empty to keep it.`
          : "Stored encrypted; never shown again.",
    },
    {
      name: "webhookSecret",
      kind: "custom",
      label: "Webhook secret",
      optional: true,
      render: (props) => <SecretInput {...props} />,
      hint: ({ editing }) =>
        editing?.hasWebhookSecret
          ? `Saved (${hint(editing.webhookSecretHint)}). Leave empty to keep it.`
          : "The secret you set on the gateway's webhook; without it, webhooks are refused.",
    },
    { name: "enabled", kind: "radio", label: "Offer it to readers", options: yesNo },
    {
      name: "stripeTax",
      kind: "checkboxes",
      label: "Tax",
      optional: true,
      when: (v) => v.provider === "stripe",
      useOptions: () => STRIPE_TAX_OPTIONS,
      hint: "Stripe Tax must be active on the Stripe account (Settings → Tax); the connection check says whether it is.",
    },
  ],
  emptyValues: () => ({
    provider: GATEWAY_PROVIDERS[0],
    environment: "sandbox",
    appKey: "",
    secret: "",
    webhookSecret: "",
    enabled: "yes",
    stripeTax: "",
  }),
  create: { schema: ZUpsertGatewayInput, toInput, onCreated: (g) => checkWhenShown(g) },
  update: {
    schema: ZUpsertGatewayInput,
    label: "Edit",
    toValues: (g) => ({
      provider: g.provider,
      environment: g.environment,
      appKey: g.appKey,
      secret: "",
      webhookSecret: "",
      enabled: g.enabled ? "yes" : "no",
      stripeTax: stripeTaxValue(g),
    }),
    toInput: (v, g) => ({ ...toInput(v), provider: g.provider as (typeof GATEWAY_PROVIDERS)[number] }),
  },
  remove: {
    toInput: (g) => ({ provider: g.provider as (typeof GATEWAY_PROVIDERS)[number] }),
    confirm: (g) => ({
      title: `Delete the ${label(g.provider)} credentials?`,
      body: "Readers can no longer pay through it, and its webhooks are refused.",
    }),
  },
});

export const PaymentGatewayManager = () => <ResourceManager config={gateways} />;
