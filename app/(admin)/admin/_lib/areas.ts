/**
 * The dashboard's areas: where each lives, who may open it, and whether it is built yet.
 * One list feeds the side navigation (items a user's roles cannot open are hidden) and the role
 * check of every page, so the two never disagree.
 *
 * Areas marked `built: false` are served by the placeholder route (../[...area]/page.tsx) until a
 * real page replaces them: a static route such as content/stories/page.tsx wins over that catch-all.
 */
import { hasAnyRole, type AdminRole } from "@/server/auth/roles";

type AdminSection = {
  slug: string;
  label: string;
  summary: string;
  /** Who may open it when not the area's roles (contributors open only Content → Stories). */
  roles?: readonly AdminRole[];
};

type AdminArea = {
  slug: string;
  href: string;
  label: string;
  /** Who may open it (OWNER always may); undefined: every admin user. */
  roles?: readonly AdminRole[];
  summary: string;
  built: boolean;
  sections?: readonly AdminSection[];
  /** Where the navigation's link to the area goes when not `href` (set by visibleAreas). */
  entry?: string;
};

const ADMIN_AREAS = [
  { slug: "", href: "/admin", label: "Overview", summary: "Your publication at a glance.", built: true },
  {
    slug: "content",
    href: "/admin/content",
    label: "Content",
    roles: ["EDITOR"],
    summary: "What the publishing content API serves: stories and everything that organises them.",
    built: true,
    sections: [
      {
        slug: "stories",
        label: "Stories",
        summary: "Write, edit, schedule and publish stories.",
        roles: ["EDITOR", "CONTRIBUTOR"],
      },
      {
        slug: "collections",
        label: "Collections",
        summary: "Curated and automatic lists of stories for home pages and feeds.",
      },
      { slug: "authors", label: "Authors", summary: "Bylines, bios and author pages." },
      { slug: "sections", label: "Sections", summary: "The publication's sections and their hierarchy." },
      { slug: "tags", label: "Tags", summary: "Tags that group stories across sections." },
      { slug: "entities", label: "Entities", summary: "People, places and organisations that stories mention." },
      {
        slug: "media",
        label: "Media",
        summary: "Uploaded images: thumbnails, alt text, where each is used, and unused uploads.",
      },
    ],
  },
  {
    slug: "engagement",
    href: "/admin/engagement",
    label: "Engagement",
    roles: ["MODERATOR"],
    summary: "Reader comments and their moderation.",
    built: true,
    sections: [
      {
        slug: "moderation",
        label: "Moderation",
        summary: "The queue of held and flagged comments: pending, reported, spam, toxic; bans and readers' history.",
      },
      {
        slug: "community",
        label: "Community",
        summary:
          "Find any reader: their comments and history; warn, suspend or ban; reject their comments in one step.",
      },
      {
        slug: "settings",
        label: "Moderation settings",
        summary: "Pre- or post-moderation, the toxicity threshold, banned words, links from new readers.",
      },
      {
        slug: "scoring",
        label: "Scoring",
        summary: "The adaptive layer, the external scorer, and a configuration tried in shadow before it goes live.",
      },
    ],
  },
  {
    slug: "ugc",
    href: "/admin/ugc",
    label: "Reader submissions",
    roles: ["MODERATOR", "EDITOR"],
    summary: "Contributions readers send through the UGC form: review, approve or reject them.",
    built: true,
  },
  {
    slug: "subscriptions",
    href: "/admin/subscriptions",
    label: "Subscriptions",
    roles: ["REVENUE"],
    summary: "Plans, paying readers and the paywall.",
    built: true,
    sections: [
      { slug: "plans", label: "Plans", summary: "What readers can buy, at what price: groups and their plans." },
      {
        slug: "reports",
        label: "Reports",
        summary: "Active, new and churned subscriptions, revenue per currency and the meter's conversion, per day.",
      },
      {
        slug: "conversions",
        label: "Conversions",
        summary: "Which stories convert: readers who hit a story's wall, and who registered, started a trial or paid.",
      },
      {
        slug: "subscribers",
        label: "Subscribers",
        summary: "Find a reader by any identity: their subscriptions, payments (refunds) and webhooks.",
      },
      {
        slug: "subscriptions",
        // Not "Subscriptions": the area's own link has that name, and two links of one name in
        // one navigation cannot be told apart by a screen reader (or a test).
        label: "All subscriptions",
        summary: "Every subscription: find, cancel at period end, extend, give one.",
      },
      {
        slug: "campaigns",
        label: "Campaigns",
        summary: "Contributions towards a target, and how much each campaign has collected.",
      },
      {
        slug: "assets",
        label: "Assets",
        summary: "What subscriptions grant: the site, static areas, stories by access level.",
      },
      {
        slug: "pricing-plans",
        label: "Pay per story",
        summary: "Prices of single stories and collections, for a time or for good.",
      },
      { slug: "coupons", label: "Coupons", summary: "Percent or fixed discount codes, their limits and use." },
      { slug: "invoices", label: "Invoices", summary: "Payments and invoices." },
      { slug: "taxes", label: "Tax rules", summary: "Taxes charged on sales, by country and region." },
      { slug: "meter", label: "Paywall meter", summary: "Free stories per period before the paywall." },
      {
        slug: "offers",
        label: "Paywall offers",
        summary: "The paywall's plans, price, trial and words for each kind of reader.",
      },
      { slug: "offer-tests", label: "Offer tests", summary: "A/B tests of two offers, their result and its interval." },
      {
        slug: "retention",
        label: "Retention offer",
        summary: "The offer to readers who cancel on the self-service page, and their reasons.",
      },
      {
        slug: "gateways",
        label: "Payment gateways",
        summary: "Razorpay keys and the webhook URL readers' payments are confirmed through.",
      },
    ],
  },
  {
    slug: "newsletters",
    href: "/admin/newsletters",
    label: "Newsletters",
    roles: ["EDITOR", "REVENUE"],
    summary: "Newsletters readers subscribe to: sender, design, audience, digest, and their subscribers.",
    built: true,
    sections: [
      {
        slug: "sends",
        label: "Sends",
        summary: "Every story and digest sent as a newsletter: its state, recipients, and mails sent and failed.",
      },
    ],
  },
  {
    slug: "webhooks",
    href: "/admin/webhooks",
    label: "Webhooks",
    roles: ["OWNER"],
    summary: "Endpoints that receive content and subscription events, and their deliveries.",
    built: true,
  },
  {
    slug: "oauth-clients",
    href: "/admin/oauth-clients",
    label: "OAuth clients",
    roles: ["OWNER"],
    summary: "Applications that sign readers in through Masthead (OAuth 2.0): their ids, secrets and redirect URIs.",
    built: true,
  },
  {
    slug: "import",
    href: "/admin/import",
    label: "Import",
    roles: ["OWNER"],
    summary: "Bring comments, content and readers from another system: upload its export, dry run, import.",
    built: true,
  },
  {
    slug: "audit-log",
    href: "/admin/audit-log",
    label: "Audit log",
    roles: ["OWNER"],
    summary: "Who did what in the dashboard.",
    built: true,
  },
  {
    slug: "mail",
    href: "/admin/mail",
    label: "Outbox",
    roles: ["OWNER"],
    summary: "E-mails sent to members (password reset links), with their status and body.",
    built: true,
  },
  {
    slug: "users",
    href: "/admin/users",
    label: "Users & keys",
    roles: ["OWNER"],
    summary: "Dashboard users and their roles, and the account's API keys.",
    built: true,
  },
  {
    slug: "settings",
    href: "/admin/settings",
    label: "Settings",
    roles: ["OWNER"],
    summary: "The publication's name, site URL and domains, images, logo, menu, SEO defaults and language.",
    built: true,
  },
] as const satisfies readonly AdminArea[];

export type AreaSlug = (typeof ADMIN_AREAS)[number]["slug"];

export function getArea(slug: AreaSlug): AdminArea {
  return (ADMIN_AREAS as readonly AdminArea[]).find((area) => area.slug === slug)!;
}

/** The area and section a placeholder path names (["content", "stories"]), if any. */
export function findPlaceholder(segments: readonly string[]): { area: AdminArea; section?: AdminSection } | undefined {
  const [areaSlug, sectionSlug, ...rest] = segments;
  if (rest.length > 0) return undefined;
  const area = (ADMIN_AREAS as readonly AdminArea[]).find((a) => a.slug === areaSlug && a.slug !== "");
  if (!area || area.built) return undefined;
  if (sectionSlug === undefined) return { area };
  const section = area.sections?.find((s) => s.slug === sectionSlug);
  return section ? { area, section } : undefined;
}

/** Who may open a section of an area: its own roles, else the area's. */
export function sectionRoles(slug: AreaSlug, section: string): readonly AdminRole[] | undefined {
  const area = getArea(slug);
  return area.sections?.find((s) => s.slug === section)?.roles ?? area.roles;
}

/**
 * Navigation items this user may open: the areas, and within each the sections, their roles
 * allow. An area the user may open only some sections of (a contributor's Content) links
 * (`entry`) to the first of them.
 */
export function visibleAreas(roles: readonly AdminRole[]): AdminArea[] {
  return (ADMIN_AREAS as readonly AdminArea[]).flatMap((area) => {
    const sections = area.sections?.filter((s) => hasAnyRole(roles, s.roles ?? area.roles));
    if (hasAnyRole(roles, area.roles)) return [{ ...area, sections }];
    const first = sections?.[0];
    return first ? [{ ...area, entry: `${area.href}/${first.slug}`, sections }] : [];
  });
}
