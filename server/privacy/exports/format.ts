/**
 * The data export's format (docs/privacy.md "Data export (subject access)"): data.json's
 * identification, its sections in order, and which relation of `Member` (prisma/schema/members.prisma)
 * each section covers. Pure: the collectors fill the sections, index.html shows them in this
 * order, and format.test.ts compares MEMBER_RELATION_SECTIONS with the schema's relations of
 * `Member`, so a relation added later fails the test until an export section covers it.
 */

/** A time as data.json writes it: ISO 8601 in UTC, or null. */
export const iso = (when: Date | null | undefined): string | null => (when ? when.toISOString() : null);

export const EXPORT_FORMAT = "masthead.member-export";
/** Raised when a field changes meaning or goes; adding a field or a section keeps it. */
export const EXPORT_FORMAT_VERSION = 1;

/** data.json's sections after the header (format, version, generated_at), in order. */
export const EXPORT_SECTIONS = [
  "publication",
  "member",
  "identities",
  "sessions",
  "password_resets",
  "email_verifications",
  "oauth_authorizations",
  "oauth_tokens",
  "comments",
  "comment_reactions",
  "page_reactions",
  "story_votes",
  "comment_reports",
  "comment_bans",
  "moderation_notices",
  "comment_claim",
  "uploaded_images",
  "ugc_submissions",
  "notification_preferences",
  "notifications",
  "subscriptions",
  "payments",
  "invoices",
  "credit_notes",
  "gifts_given",
  "group_memberships",
  "payment_customers",
  "newsletter_subscriptions",
  "newsletter_deliveries",
  "consents",
  "mail",
  "data_exports",
  "consent_records",
  "erasure_requests",
  "illegal_content_notices",
  "reader_ids",
] as const;
export type ExportSection = (typeof EXPORT_SECTIONS)[number];

/** Each relation field of `Member` and the section that holds its rows. */
export const MEMBER_RELATION_SECTIONS: ReadonlyMap<string, ExportSection> = new Map<string, ExportSection>([
  ["account", "publication"],
  ["sessions", "sessions"],
  ["resetTokens", "password_resets"],
  ["votes", "story_votes"],
  ["identities", "identities"],
  ["comments", "comments"],
  ["reactions", "comment_reactions"],
  ["pageReactions", "page_reactions"],
  ["uploadedImages", "uploaded_images"],
  ["commentReports", "comment_reports"],
  ["commentBans", "comment_bans"],
  ["memberNotices", "moderation_notices"],
  ["notificationPrefs", "notification_preferences"],
  ["readerNotifications", "notifications"],
  ["commentClaim", "comment_claim"],
  ["ugcSubmissions", "ugc_submissions"],
  ["oauthCodes", "oauth_authorizations"],
  ["oauthTokens", "oauth_tokens"],
  ["verifyTokens", "email_verifications"],
  ["subscriberProfile", "member"],
  ["subscriptions", "subscriptions"],
  ["invoices", "invoices"],
  ["creditNotes", "credit_notes"],
  ["giftedSubscriptions", "gifts_given"],
  ["subscriptionMemberships", "group_memberships"],
  ["consents", "consents"],
  ["consentRecords", "consent_records"],
  ["newsletterSubscriptions", "newsletter_subscriptions"],
  ["newsletterDeliveries", "newsletter_deliveries"],
  ["gatewayCustomers", "payment_customers"],
  ["dataExports", "data_exports"],
  ["erasureRequests", "erasure_requests"],
  ["conversionReaderLinks", "reader_ids"],
  // A confirmation link's token (a hash and its expiry), as sessions and reset tokens: not exported.
  ["erasureConfirmations", "erasure_requests"],
]);

/** data.json: the header and one value per section (a list of rows, one row, or null). */
export type TMemberExportData = {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_FORMAT_VERSION;
  generated_at: string;
} & Record<ExportSection, unknown>;
