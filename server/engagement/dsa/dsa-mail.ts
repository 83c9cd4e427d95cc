/**
 * The DSA notice-and-action mails (docs/privacy.md, "Illegal-content notices"), each queued through
 * the outbox in the transaction of the step that causes it, in the recipient's language:
 *
 * - dsa.notice_receipt: to the notifier, the notice was received (art. 16(4));
 * - dsa.statement_of_reasons: to the comment's author, the decision and its reasons (art. 17);
 * - dsa.notice_decision: to the notifier, the decision (art. 16(5));
 * - dsa.appeal_decision: to each party, the decision on an appeal (art. 20(4)).
 *
 * The decision mails carry the party's appeal link. That a mail goes once is the caller's: each is
 * queued only by the statement that moved its row (a receipt by the notice's insert, the decision
 * mails by the update that decided, the final mails by the update that decided the appeal).
 */

import "server-only";

import { DSA_CATEGORY_MESSAGES, DSA_TERMS_CATEGORY_MESSAGE } from "@/i18n/dsa-categories";
import { chooseLocale, type Locale } from "@/i18n/locales";

import type { Db } from "../../db/client";
import { accountLocales } from "../../i18n/locale-settings";
import { translatorFor } from "../../i18n/overrides";
import { readerMailKit, renderSimpleMail, type MailBlock, type ReaderMail } from "../../i18n/reader-mail";
import { queueEmail } from "../../mail/outbox";
import { isPlaceholderEmail } from "../../members/identities";

/** A mail's recipient: an address, the language asked for (a member's saved one wins), a name. */
export type DsaRecipient = { email: string; locale: string | null; memberId: number | null; name: string | null };

const CATEGORY_KEYS = new Map<string, string>([...DSA_CATEGORY_MESSAGES, DSA_TERMS_CATEGORY_MESSAGE]);

const ACTION_KEYS = new Map<string, string>([
  ["remove", "dsaActionRemove"],
  ["restrict", "dsaActionRestrict"],
  ["none", "dsaActionNone"],
  ["restored", "dsaActionRestored"],
]);

type MailKey = Parameters<ReaderMail["t"]>[0];
const key = (map: Map<string, string>, value: string | null | undefined, fallback: string) =>
  (map.get(value ?? "") ?? fallback) as MailKey;

/** A member's address for mail, or null (a placeholder address is nobody's). */
export function memberAddress(member: { email: string; communicationEmail: string | null } | null): string | null {
  if (!member) return null;
  if (member.communicationEmail) return member.communicationEmail;
  return isPlaceholderEmail(member.email) ? null : member.email;
}

/** The recipient's language kit: a member's saved locale, else the one asked for, else the account's default. */
async function kitFor(db: Db, accountId: number, to: DsaRecipient): Promise<ReaderMail> {
  const [locales, member, account] = await Promise.all([
    accountLocales(db, accountId),
    to.memberId === null
      ? null
      : db.member.findFirst({ where: { id: to.memberId, accountId }, select: { locale: true } }),
    db.account.findUnique({ where: { id: accountId }, select: { timeZone: true } }),
  ]);
  const locale: Locale = chooseLocale([member?.locale, to.locale], locales.offered, locales.defaultLocale);
  return readerMailKit(locale, await translatorFor(db, accountId, "mail", locale), account?.timeZone || "UTC");
}

async function send(
  db: Db,
  args: { accountId: number; to: DsaRecipient; kind: string; now: Date },
  build: (mail: ReaderMail) => { subject: string; blocks: MailBlock[] },
): Promise<void> {
  const mail = await kitFor(db, args.accountId, args.to);
  const { subject, blocks } = build(mail);
  const rendered = renderSimpleMail(mail, { subject, name: args.to.name, blocks });
  await queueEmail(db, { accountId: args.accountId, to: args.to.email, ...rendered, kind: args.kind, now: args.now });
}

type NoticeFacts = { id: number; category: string; headline: string };

export function queueReceiptMail(
  db: Db,
  args: { accountId: number; to: DsaRecipient; notice: NoticeFacts; now: Date },
): Promise<void> {
  return send(db, { ...args, kind: "dsa.notice_receipt" }, (mail) => ({
    subject: mail.t("dsaReceiptSubject"),
    blocks: [
      {
        p: mail.t("dsaReceiptBody", {
          ref: args.notice.id,
          headline: args.notice.headline,
          category: mail.t(key(CATEGORY_KEYS, args.notice.category, "dsaCatOther")),
        }),
      },
      { p: mail.t("dsaReceiptNext") },
    ],
  }));
}

type DecisionFacts = {
  action: string;
  category: string;
  ground: string;
  groundReference: string;
  facts: string;
  automated: boolean;
};

/** The statement of reasons (to the author) or the decision (to the notifier), with the appeal link. */
export function queueDecisionMail(
  db: Db,
  args: {
    accountId: number;
    to: DsaRecipient;
    party: "author" | "notifier";
    notice: NoticeFacts;
    decision: DecisionFacts;
    appealUrl: string;
    appealUntil: Date;
    now: Date;
  },
): Promise<void> {
  const { decision } = args;
  const kind = args.party === "author" ? "dsa.statement_of_reasons" : "dsa.notice_decision";
  return send(db, { ...args, kind }, (mail) => {
    const action = mail.t(key(ACTION_KEYS, decision.action, "dsaActionNone"));
    const values = { ref: args.notice.id, headline: args.notice.headline, action };
    return {
      subject: mail.t(args.party === "author" ? "dsaSorSubject" : "dsaDecisionSubject"),
      blocks: [
        { p: mail.t(args.party === "author" ? "dsaSorBody" : "dsaDecisionBody", values) },
        { p: mail.t("dsaCategoryLine", { category: mail.t(key(CATEGORY_KEYS, decision.category, "dsaCatOther")) }) },
        {
          p: mail.t(decision.ground === "legal" ? "dsaGroundLegal" : "dsaGroundTerms", {
            reference: decision.groundReference,
          }),
        },
        { p: mail.t("dsaFactsLine", { facts: decision.facts }) },
        { p: mail.t(decision.automated ? "dsaAutomatedYes" : "dsaAutomatedNo") },
        { p: mail.t("dsaAppealHow", { date: mail.dateTime(args.appealUntil) }) },
        { link: args.appealUrl, label: mail.t("dsaAppealLink") },
      ],
    };
  });
}

/** The decision on an appeal, to one party. `state`: what the comment is now. */
export function queueAppealDecisionMail(
  db: Db,
  args: {
    accountId: number;
    to: DsaRecipient;
    notice: NoticeFacts;
    outcome: "upheld" | "reversed";
    action: string;
    reasons: string;
    now: Date;
  },
): Promise<void> {
  return send(db, { ...args, kind: "dsa.appeal_decision" }, (mail) => ({
    subject: mail.t("dsaFinalSubject"),
    blocks: [
      {
        p: mail.t(args.outcome === "upheld" ? "dsaFinalUpheld" : "dsaFinalReversed", {
          ref: args.notice.id,
          headline: args.notice.headline,
          action: mail.t(key(ACTION_KEYS, args.action, "dsaActionNone")),
        }),
      },
      { p: mail.t("dsaFinalReasons", { reasons: args.reasons }) },
      { p: mail.t("dsaFinalOther") },
    ],
  }));
}
