/**
 * Every outgoing webhook event name, per kind. The dashboard offers these; endpoints subscribe to
 * a subset. Data shapes are documented in docs/webhooks.md.
 */
import { z } from "zod";

export const CONTENT_EVENTS = [
  "story-submit",
  "story-approve",
  "story-reject",
  "story-publish",
  "story-retract",
  "story-update",
  "collection-update",
  "member-signup",
] as const;

export const SUBSCRIPTION_EVENTS = [
  "subscription.created",
  "subscription.activated",
  "subscription.renewed",
  "subscription.cancelled",
  "subscription.expired",
  "subscription.grace_period_entered",
  "subscriber.created",
] as const;

/** Sent by "send test event"; every endpoint receives it whatever it subscribes to. */
export const TEST_EVENT = "webhook-test";

export const ZWebhookKind = z.enum(["CONTENT", "SUBSCRIPTION"]);
export type TWebhookKind = z.infer<typeof ZWebhookKind>;

export const EVENTS_BY_KIND: Record<TWebhookKind, readonly string[]> = {
  CONTENT: CONTENT_EVENTS,
  SUBSCRIPTION: SUBSCRIPTION_EVENTS,
};

const zWebhookUrl = z
  .string()
  .trim()
  .max(255, "must be at most 255 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL without credentials");

const ZWebhookEndpointBase = z.object({
  url: zWebhookUrl,
  description: z.string().trim().max(500).default(""),
  events: z.array(z.string()).min(1, "choose at least one event"),
});

export const ZCreateWebhookEndpointInput = ZWebhookEndpointBase.extend({
  kind: ZWebhookKind,
  /** true: generate a secret (returned once); false: unsigned (empty X-Qt-Signature). */
  withSecret: z.boolean().default(true),
}).superRefine((input, ctx) => checkEvents(input.kind, input.events, ctx));
export type TCreateWebhookEndpointInput = z.input<typeof ZCreateWebhookEndpointInput>;

export const ZUpdateWebhookEndpointInput = ZWebhookEndpointBase.partial().extend({ id: z.uuid() });
export type TUpdateWebhookEndpointInput = z.input<typeof ZUpdateWebhookEndpointInput>;

/** One entry per event name that `kind` does not have. */
export function unknownEventIssues(kind: TWebhookKind, events: readonly string[]): { index: number; message: string }[] {
  const known = EVENTS_BY_KIND[kind];
  return events.flatMap((event, index) => (known.includes(event) ? [] : [{ index, message: `unknown ${kind.toLowerCase()} event "${event}"` }]));
}

function checkEvents(kind: TWebhookKind, events: readonly string[], ctx: z.RefinementCtx): void {
  for (const { index, message } of unknownEventIssues(kind, events)) ctx.addIssue({ code: "custom", path: ["events", index], message });
}

export const ZDeliveryStatus = z.enum(["PENDING", "SUCCEEDED", "FAILED"]);

export const ZListDeliveriesInput = z.object({
  endpointId: z.uuid(),
  status: ZDeliveryStatus.optional(),
  cursor: z.uuid().optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListDeliveriesInput = z.input<typeof ZListDeliveriesInput>;
