/**
 * The audit log in words: where an entry's target is seen in the dashboard, what kind of thing it
 * is, and its details as "field: from → to" lines instead of JSON. Pure.
 */

type Target = { label: string; href: (id: string | null) => string };

const TARGETS: Record<string, Target> = {
  story: {
    label: "Story",
    href: (id) => (id ? `/admin/content/stories/${encodeURIComponent(id)}` : "/admin/content/stories"),
  },
  collection: {
    label: "Collection",
    href: (id) => (id ? `/admin/content/collections/${encodeURIComponent(id)}` : "/admin/content/collections"),
  },
  image: { label: "Image", href: () => "/admin/content/media" },
  file: { label: "File", href: () => "/admin/content/media" },
  webhook_endpoint: {
    label: "Webhook",
    href: (id) => (id ? `/admin/webhooks/${encodeURIComponent(id)}` : "/admin/webhooks"),
  },
  admin_user: { label: "Staff member", href: () => "/admin/users" },
  api_key: { label: "API key", href: () => "/admin/users" },
  oauth_client: { label: "OAuth client", href: () => "/admin/oauth-clients" },
  account: { label: "Publication", href: () => "/admin/settings" },
  publisher_config: { label: "Settings", href: () => "/admin/settings" },
  import_run: { label: "Import", href: () => "/admin/import" },
  member: { label: "Reader", href: () => "/admin/engagement/community" },
  comment: { label: "Comment", href: () => "/admin/engagement/moderation" },
  page: { label: "Page", href: () => "/admin/engagement/moderation" },
  ugc_submission: { label: "Contribution", href: () => "/admin/ugc" },
  comment_moderation_settings: { label: "Moderation settings", href: () => "/admin/engagement/settings" },
  moderation_surge_settings: { label: "Shifts and surges", href: () => "/admin/engagement/settings" },
  moderation_alert_episode: { label: "Queue alert", href: () => "/admin/engagement/moderation" },
  comment_scoring_settings: { label: "Scoring", href: () => "/admin/engagement/scoring" },
  subscription: { label: "Subscription", href: () => "/admin/subscriptions/subscriptions" },
  payment: { label: "Payment", href: () => "/admin/subscriptions/invoices" },
  payment_gateway: { label: "Payment gateway", href: () => "/admin/subscriptions/gateways" },
  meter_settings: { label: "Paywall meter", href: () => "/admin/subscriptions/meter" },
  offer: { label: "Paywall offer", href: () => "/admin/subscriptions/offers" },
  experiment: { label: "Offer test", href: () => "/admin/subscriptions/offer-tests" },
  invoice_seller: { label: "Seller on invoices", href: () => "/admin/subscriptions/invoices" },
};

/** "comment_scoring_settings" → "Comment scoring settings". */
export function words(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.-]+/g, " ")
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The target's kind in words and where the dashboard shows it (null: nowhere to go). */
export function auditTarget(
  targetType: string | null,
  targetId: string | null,
): { label: string; href: string | null } | null {
  if (!targetType) return null;
  const known = Object.hasOwn(TARGETS, targetType) ? TARGETS[targetType] : undefined;
  return known ? { label: known.label, href: known.href(targetId) } : { label: words(targetType), href: null };
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(", ") : "none";
  return JSON.stringify(value);
}

const isChange = (value: unknown): value is { from: unknown; to: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value) && "from" in value && "to" in value;

/** An entry's details as lines: `{adaptive: {from: false, to: true}}` → "Adaptive: false → true". */
export function detailLines(metadata: Record<string, unknown>): { label: string; text: string }[] {
  return Object.entries(metadata).map(([key, value]) => ({
    label: words(key),
    text: isChange(value) ? `${valueText(value.from)} → ${valueText(value.to)}` : valueText(value),
  }));
}
