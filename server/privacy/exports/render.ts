/**
 * The archive's index.html: data.json as a page a person reads, in the export's locale (`lang`,
 * `dir`; Arabic right to left), with the section titles from the member catalogue, times in the
 * account's zone and money in the locale's form. Field names stay data.json's own (docs/privacy.md
 * explains each), so the page and the file can be read side by side. Everything from the data is
 * escaped; the page loads nothing (no script, no remote style or image: it opens from disk).
 */
import { directionOf, type Locale } from "@/i18n/locales";
import { formatDateTime, formatMoney, type Translate } from "@/i18n/translate";

import { escapeXml } from "../../text/xml";
import { EXPORT_SECTIONS, type ExportSection, type TMemberExportData } from "./format";

type Kit = { locale: Locale; t: Translate<"member">; timeZone: string };

const esc = (text: string) => escapeXml(text);

const SECTION_TITLES: Record<ExportSection, Parameters<Translate<"member">>[0]> = {
  publication: "export.section.publication",
  member: "export.section.member",
  identities: "export.section.identities",
  sessions: "export.section.sessions",
  password_resets: "export.section.passwordResets",
  email_verifications: "export.section.emailVerifications",
  oauth_authorizations: "export.section.oauthAuthorizations",
  oauth_tokens: "export.section.oauthTokens",
  comments: "export.section.comments",
  comment_reactions: "export.section.commentReactions",
  page_reactions: "export.section.pageReactions",
  story_votes: "export.section.storyVotes",
  comment_reports: "export.section.commentReports",
  comment_bans: "export.section.commentBans",
  moderation_notices: "export.section.moderationNotices",
  comment_claim: "export.section.commentClaim",
  uploaded_images: "export.section.uploadedImages",
  ugc_submissions: "export.section.ugcSubmissions",
  notification_preferences: "export.section.notificationPreferences",
  notifications: "export.section.notifications",
  subscriptions: "export.section.subscriptions",
  payments: "export.section.payments",
  invoices: "export.section.invoices",
  credit_notes: "export.section.creditNotes",
  gifts_given: "export.section.giftsGiven",
  group_memberships: "export.section.groupMemberships",
  payment_customers: "export.section.paymentCustomers",
  newsletter_subscriptions: "export.section.newsletterSubscriptions",
  newsletter_deliveries: "export.section.newsletterDeliveries",
  consents: "export.section.consents",
  consent_records: "export.section.consentRecords",
  mail: "export.section.mail",
  data_exports: "export.section.dataExports",
  erasure_requests: "export.section.erasureRequests",
  illegal_content_notices: "export.section.illegalContentNotices",
  reader_ids: "export.section.readerIds",
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** One value as text: times and money in the reader's form, lists and objects as JSON. */
function valueText(kit: Kit, key: string, value: unknown, row: Readonly<Record<string, unknown>>): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string" && key.endsWith("_at") && ISO_TIME.test(value))
    return formatDateTime(new Date(value), kit.locale, kit.timeZone);
  if (typeof value === "number" && key.endsWith("_cents") && typeof row.currency === "string") {
    try {
      return formatMoney(value, row.currency, kit.locale);
    } catch {
      return `${value} ${row.currency}`;
    }
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function rowHtml(kit: Kit, row: Readonly<Record<string, unknown>>): string {
  const items = Object.entries(row).map(
    ([key, value]) =>
      `<dt dir="ltr">${esc(key)}</dt><dd dir="auto">${esc(valueText(kit, key, value, row)).replace(/\n/g, "<br>")}</dd>`,
  );
  return `<dl>${items.join("")}</dl>`;
}

function sectionHtml(kit: Kit, section: ExportSection, value: unknown): string {
  const title = esc(kit.t(SECTION_TITLES[section]));
  const rows: Record<string, unknown>[] = Array.isArray(value)
    ? (value as Record<string, unknown>[])
    : value && typeof value === "object"
      ? [value as Record<string, unknown>]
      : [];
  const count = Array.isArray(value) ? ` <span class="count">(${rows.length})</span>` : "";
  const body = rows.length
    ? rows.map((row) => `<article>${rowHtml(kit, row)}</article>`).join("")
    : `<p class="none">${esc(kit.t("export.archiveNothing"))}</p>`;
  return `<section id="${section}" aria-labelledby="h-${section}"><h2 id="h-${section}">${title}${count}</h2>${body}</section>`;
}

// Logical sides only (the page mirrors for Arabic); no physical margin, padding or alignment.
const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif;color:#18181b;background:#fafafa;line-height:1.5}
main{max-width:56rem;margin-inline:auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;margin-block:0 .5rem}
h2{font-size:1.125rem;margin-block:2rem .75rem;border-block-end:1px solid #d4d4d8;padding-block-end:.25rem}
.count{color:#52525b;font-weight:normal}
nav ul{padding-inline-start:1.25rem;columns:14rem}
article{background:#fff;border:1px solid #e4e4e7;border-radius:.5rem;padding:.75rem 1rem;margin-block:0 .75rem}
dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dt{color:#52525b;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8125rem;overflow-wrap:anywhere}
dd{margin:0;overflow-wrap:anywhere;min-width:0}
.none{color:#52525b}
a{color:#1d4ed8}
@media (max-width:30rem){dl{grid-template-columns:1fr}dd{margin-block-end:.5rem}}
`;

/** index.html of the archive for `data`. */
export function renderExportHtml(data: TMemberExportData, kit: Kit): string {
  const publication = data.publication as { name?: unknown } | null;
  const publisher = typeof publication?.name === "string" ? publication.name : "";
  const title = esc(kit.t("export.archiveTitle", { publisher }));
  const generated = formatDateTime(new Date(data.generated_at), kit.locale, kit.timeZone);
  const toc = EXPORT_SECTIONS.map(
    (section) => `<li><a href="#${section}">${esc(kit.t(SECTION_TITLES[section]))}</a></li>`,
  ).join("");
  const sections = EXPORT_SECTIONS.map((section) => sectionHtml(kit, section, data[section])).join("\n");
  return `<!doctype html>
<html lang="${kit.locale}" dir="${directionOf(kit.locale)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${title}</title><style>${STYLE}</style></head>
<body><main id="main"><h1>${title}</h1>
<p>${esc(kit.t("export.archiveIntro", { publisher, date: generated }))}</p>
<p>${esc(kit.t("export.archiveFormat", { version: data.version }))}</p>
<nav aria-label="${esc(kit.t("export.archiveContents"))}"><ul>${toc}</ul></nav>
${sections}
</main></body></html>
`;
}
