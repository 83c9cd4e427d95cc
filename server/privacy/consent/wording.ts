/**
 * The wording a reader is shown where they give a consent, as the consent records keep it: the same
 * catalogue messages the widget, member page or mail shows, with the account's own words
 * (overrides) for that locale, formatted in the locale shown.
 *
 * - newsletter sign-up widget and member page: "consentNewsletterNote" / "consent.newsletterNote",
 *   shown under the form and above the switches;
 * - confirmation link: the confirmation mail's request and its button ("confirmIntro", "confirmButton");
 * - comment-notification mails: the widget's settings line ("notifyIntro", the kind, the choice).
 */
import "server-only";

import { isLocale, type Locale } from "@/i18n/locales";
import { translator } from "@/i18n/translate";

import type { Db } from "../../db/client";
import { accountLocales, memberLocale } from "../../i18n/locale-settings";
import { overridesFor } from "../../i18n/overrides";
import type { ConsentWording } from "./consent";

/** The locale a page or widget was shown in: the one it named when the account offers it, else the account's default. */
export async function shownLocale(db: Db, accountId: number, named: string | null | undefined): Promise<Locale> {
  const locales = await accountLocales(db, accountId);
  return named && isLocale(named) && locales.offered.includes(named) ? named : locales.defaultLocale;
}

/** The newsletter note under the sign-up widget's form ("widgets") or above the member page's switches ("member"). */
export async function newsletterNoteWording(
  db: Db,
  args: { accountId: number; surface: "widgets" | "member"; locale: Locale },
): Promise<ConsentWording> {
  const overrides = await overridesFor(db, args.accountId, args.surface, args.locale);
  const text =
    args.surface === "widgets"
      ? translator("widgets", args.locale, overrides)("consentNewsletterNote")
      : translator("member", args.locale, overrides)("consent.newsletterNote");
  return { locale: args.locale, text };
}

/** The member page's note, in the reader's locale. */
export async function memberPageNewsletterWording(
  db: Db,
  accountId: number,
  memberId: number,
): Promise<ConsentWording> {
  const locale = await memberLocale(db, accountId, memberId);
  return newsletterNoteWording(db, { accountId, surface: "member", locale });
}

/** What the confirmation mail asked, in the reader's mail locale: the request and the button followed. */
export async function confirmationWording(
  db: Db,
  args: { accountId: number; memberId: number; newsletter: string; publisher: string },
): Promise<ConsentWording> {
  const locale = await memberLocale(db, args.accountId, args.memberId);
  const t = translator("mail", locale, await overridesFor(db, args.accountId, "mail", locale));
  const text = `${t("confirmIntro", { newsletter: args.newsletter, publisher: args.publisher })}\n${t("confirmButton")}`;
  return { locale, text };
}

const KIND_KEYS = { replies: "notifyReplies", mentions: "notifyMentions", decisions: "notifyDecisions" } as const;
const CHOICE_KEYS = { immediate: "notifyImmediate", digest: "notifyDigest", off: "notifyOff" } as const;

/** The notification settings' line the reader chose on ("Choose what we e-mail you… Replies to my comments: At once"). */
export async function notificationWording(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    kind: keyof typeof KIND_KEYS;
    choice: keyof typeof CHOICE_KEYS;
  },
): Promise<ConsentWording> {
  const locale = await memberLocale(db, args.accountId, args.memberId);
  const t = translator("widgets", locale, await overridesFor(db, args.accountId, "widgets", locale));
  return { locale, text: `${t("notifyIntro")}\n${t(KIND_KEYS[args.kind])}: ${t(CHOICE_KEYS[args.choice])}` };
}
