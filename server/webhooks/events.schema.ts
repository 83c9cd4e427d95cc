/**
 * Every outgoing webhook event name, per kind. The dashboard offers these; endpoints subscribe to
 * a subset. Data shapes are documented in docs/webhooks.md.
 */
import { z } from "zod";

import { checkWebUrl, zWebUrl } from "../web-url";

/** The CONTENT events of a story's workflow (server/publishing/editorial/workflow.ts). */
export const STORY_WORKFLOW_EVENTS = [
  "story-submit",
  "story-approve",
  "story-reject",
  "story-publish",
  "story-retract",
  "story-update",
] as const;

export const CONTENT_EVENTS = [
  ...STORY_WORKFLOW_EVENTS,
  "collection-update",
  "section-update",
  "tag-update",
  "author-update",
  "entity-update",
  "config-update",
  "member-signup",
] as const;

const SUBSCRIPTION_EVENTS = [
  "subscription.created",
  "subscription.activated",
  "subscription.renewed",
  "subscription.cancelled",
  "subscription.expired",
  "subscription.grace_period_entered",
  "subscription.charge_failed",
  "subscription.recovered",
  "subscriber.created",
] as const;

/**
 * The ENGAGEMENT events of comments (server/engagement; payloads in docs/webhooks.md): a reader's
 * comment was created, a moderator published, unpublished, deleted, featured or unfeatured one, a
 * reader reported one;
 * a page's surge started or ended (server/engagement/moderation/surges/surges.ts).
 */
const ENGAGEMENT_EVENTS = [
  "comment.created",
  "comment.published",
  "comment.unpublished",
  "comment.deleted",
  "comment.reported",
  "comment.featured",
  "comment.unfeatured",
  "page.surge_started",
  "page.surge_ended",
] as const;
export type TEngagementEvent = (typeof ENGAGEMENT_EVENTS)[number];

/** Sent by "send test event"; every endpoint receives it whatever it subscribes to. */
export const TEST_EVENT = "webhook-test";

type TWebhookEventName =
  (typeof CONTENT_EVENTS)[number] | (typeof SUBSCRIPTION_EVENTS)[number] | TEngagementEvent | typeof TEST_EVENT;

/**
 * When each event is sent, in one line: the dashboard's event picker shows these, and
 * docs/webhooks.md's "When each event is sent" table repeats them word for word (a unit test
 * holds the two together).
 */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<TWebhookEventName, string> = {
  "story-submit": "A story is submitted for review.",
  "story-approve": "A submitted story is approved.",
  "story-reject": "A submitted story is sent back to its writer.",
  "story-publish": "A story is published (or republished).",
  "story-retract": "A published story is taken down.",
  "story-update": "A published story is edited.",
  "collection-update": "A collection or its items change.",
  "section-update": "A section is renamed, edited or deleted.",
  "tag-update": "A tag is renamed, edited or deleted.",
  "author-update": "An author is renamed, edited or deleted.",
  "entity-update": "An entity is renamed, edited or deleted.",
  "config-update": "The dashboard's Settings are saved.",
  "member-signup": "A reader signs up as a member.",
  "subscription.created": "A subscription is created.",
  "subscription.activated": "A subscription becomes active (paid, or the gateway's recurring payment starts).",
  "subscription.renewed": "A subscription is charged for a new period.",
  "subscription.cancelled": "A subscription is cancelled.",
  "subscription.expired": "A subscription ends (at its end, or when its grace period runs out).",
  "subscription.grace_period_entered": "A recurring period goes unpaid and the grace period starts.",
  "subscription.charge_failed": "A recurring charge, or a retry of it in the grace period, is declined.",
  "subscription.recovered": "An unpaid period is paid in the grace period: the subscription recovers.",
  "subscriber.created": "A new subscriber is recorded.",
  "comment.created": "A reader's comment or reply is stored (published or held).",
  "comment.published": "A moderator makes a held comment visible.",
  "comment.unpublished": "A moderator hides a visible comment.",
  "comment.deleted": "A moderator deletes a comment.",
  "comment.reported": "A reader reports a comment (their first report of it).",
  "comment.featured": "A moderator features (pins) a comment.",
  "comment.unfeatured": "A moderator stops featuring a comment.",
  "page.surge_started": "A page's comments outran the moderators, or a shift ended.",
  "page.surge_ended": "A page's surge is over (queue cleared, a shift started, or surges turned off).",
  "webhook-test": "An owner sends a test event from the dashboard, to that endpoint only.",
};

/** The one-line description of an event name ("" for a name Masthead does not send). */
export function webhookEventDescription(name: string): string {
  return Object.hasOwn(WEBHOOK_EVENT_DESCRIPTIONS, name)
    ? (WEBHOOK_EVENT_DESCRIPTIONS as Record<string, string>)[name]!
    : "";
}

const ZWebhookKind = z.enum(["CONTENT", "SUBSCRIPTION", "ENGAGEMENT"]);
export type TWebhookKind = z.infer<typeof ZWebhookKind>;

export const EVENTS_BY_KIND: Record<TWebhookKind, readonly string[]> = {
  CONTENT: CONTENT_EVENTS,
  SUBSCRIPTION: SUBSCRIPTION_EVENTS,
  ENGAGEMENT: ENGAGEMENT_EVENTS,
};

/** How the dashboard names each kind. */
export const WEBHOOK_KIND_LABELS: Record<TWebhookKind, string> = {
  CONTENT: "Content workflow",
  SUBSCRIPTION: "Subscriptions",
  ENGAGEMENT: "Comments (engagement)",
};

/** The longest webhook URL, as stored (the column is varchar(255)). */
const WEBHOOK_URL_MAX_LENGTH = 255;

/**
 * A webhook URL as it will be requested: http(s), no credentials, no whitespace or control
 * characters (the URL parser would drop CR, LF and TAB and request another path than the one
 * shown), normalised to `new URL(input).href` (server/web-url.ts). Whether the host is public is
 * checked apart (url-guard.ts), since that needs DNS.
 */
export function checkWebhookUrl(input: string) {
  return checkWebUrl(input, { maxLength: WEBHOOK_URL_MAX_LENGTH });
}

const zWebhookUrl = zWebUrl({ maxLength: WEBHOOK_URL_MAX_LENGTH });

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
export function unknownEventIssues(
  kind: TWebhookKind,
  events: readonly string[],
): { index: number; message: string }[] {
  const known = EVENTS_BY_KIND[kind];
  return events.flatMap((event, index) =>
    known.includes(event) ? [] : [{ index, message: `unknown ${kind.toLowerCase()} event "${event}"` }],
  );
}

function checkEvents(kind: TWebhookKind, events: readonly string[], ctx: z.RefinementCtx): void {
  for (const { index, message } of unknownEventIssues(kind, events))
    ctx.addIssue({ code: "custom", path: ["events", index], message });
}

const ZDeliveryStatus = z.enum(["PENDING", "SUCCEEDED", "FAILED"]);

export const ZListDeliveriesInput = z.object({
  endpointId: z.uuid(),
  status: ZDeliveryStatus.optional(),
  cursor: z.uuid().optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListDeliveriesInput = z.input<typeof ZListDeliveriesInput>;

// ─── Dashboard views (tRPC outputs) ──────────────────────────────────────────────────────────

export const ZWebhookEndpointView = z.object({
  id: z.uuid(),
  kind: ZWebhookKind,
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  hasSecret: z.boolean(),
  active: z.boolean(),
  disabledAt: z.date().nullable(),
  disabledReason: z.string().nullable(),
  failingSince: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const ZWebhookEndpointListItem = ZWebhookEndpointView.extend({
  deliveryCounts: z.object({ PENDING: z.number().int(), SUCCEEDED: z.number().int(), FAILED: z.number().int() }),
});

/** The secret travels only in these: once, when created or rotated. */
export const ZWebhookSecretOnce = z.object({ secret: z.string().nullable() });

const ZWebhookAttemptView = z.object({
  number: z.number().int(),
  startedAt: z.date(),
  durationMs: z.number().int(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable(),
  succeeded: z.boolean(),
});

const ZWebhookDeliveryView = z.object({
  id: z.uuid(),
  status: ZDeliveryStatus,
  attemptCount: z.number().int(),
  nextAttemptAt: z.date(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  completedAt: z.date().nullable(),
  redeliveryOf: z.string().nullable(),
  /** Sent from the dashboard as a test ("Send a test event"), or a redelivery of one. */
  test: z.boolean(),
  createdAt: z.date(),
  event: z.object({ id: z.string(), name: z.string(), occurredAt: z.date(), payload: z.unknown() }),
  attempts: z.array(ZWebhookAttemptView),
});

export const ZWebhookDeliveryPage = z.object({
  deliveries: z.array(ZWebhookDeliveryView),
  nextCursor: z.string().optional(),
});

export const ZWebhookCatalog = z.object({
  CONTENT: z.array(z.string()),
  SUBSCRIPTION: z.array(z.string()),
  ENGAGEMENT: z.array(z.string()),
});
