/**
 * Consent records' vocabulary (docs/privacy.md "Consent and retention"), shared by the service,
 * the dashboard's router and its page.
 */
import { z } from "zod";

/** How a consent was given or withdrawn. */
const CONSENT_CHANNELS = [
  "widget",
  "member_page",
  "confirmation_link",
  "unsubscribe_link",
  "import",
  "staff",
  "api",
  "complaint",
] as const;
export const ZConsentChannel = z.enum(CONSENT_CHANNELS);
export type TConsentChannel = z.infer<typeof ZConsentChannel>;

/**
 * A purpose: "newsletter:<newsletter id>", "notification:<replies|mentions|decisions>" (mails about
 * the reader's comments), or "list:<list>" (a consent an import brought, member_consents).
 */
export const ZConsentPurpose = z
  .string()
  .max(120)
  .regex(/^(newsletter:[1-9][0-9]{0,9}|notification:(replies|mentions|decisions)|list:[a-z0-9_.:-]{1,80})$/);

export function newsletterPurpose(newsletterId: number): string {
  return `newsletter:${newsletterId}`;
}

export function notificationPurpose(kind: "replies" | "mentions" | "decisions"): string {
  return `notification:${kind}`;
}

/** One entry of a reader's consent history, oldest first. */
export const ZConsentHistoryEntry = z.object({
  id: z.number().int(),
  purpose: z.string(),
  /** What the purpose names, for staff: the newsletter's name, the kind of mail. */
  purposeLabel: z.string(),
  given: z.boolean(),
  channel: z.string(),
  occurredAt: z.date(),
  locale: z.string().nullable(),
  /** The wording the reader agreed to, and its SHA-256 (hex); null when none was shown. */
  text: z.string().nullable(),
  textSha256: z.string().nullable(),
  /** The imported consent (member_consents) this record stands for. */
  importedConsent: z.object({ list: z.string(), source: z.string() }).nullable(),
});
export type TConsentHistoryEntry = z.infer<typeof ZConsentHistoryEntry>;

/** A consent source word of the newsletter code ("widget", "self_service", "one_click"…) as a channel. */
export function channelOfSource(source: string): TConsentChannel {
  if (source === "widget") return "widget";
  if (source === "self_service") return "member_page";
  if (source === "dashboard") return "staff";
  if (source === "one_click" || source === "link") return "unsubscribe_link";
  if (source === "complaint") return "complaint";
  if (source.startsWith("import")) return "import";
  return "api";
}
