/**
 * The EU Digital Services Act's notice and action for comments (docs/privacy.md, "Illegal-content
 * notices"): what the edges take and give. Categories are the `category` keys of the DSA
 * Transparency Database's statements of reasons (its API documentation, "Category"), so a
 * newsroom that reports there uses the same words.
 */
import { z } from "zod";

import { LOCALES } from "@/i18n/locales";

import { zDayRange } from "../../dates.schema";
import { zMemberEmail } from "../../members/members.schema";
import { zWholeNumber } from "../../params.schema";
import { ZCommentParams } from "../comments.schema";

/** The categories a notifier chooses from: the DSA Transparency Database's keys that fit a comment. */
export const DSA_NOTICE_CATEGORIES = [
  "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH",
  "STATEMENT_CATEGORY_CYBER_VIOLENCE",
  "STATEMENT_CATEGORY_PROTECTION_OF_MINORS",
  "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
  "STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS",
  "STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS",
  "STATEMENT_CATEGORY_VIOLENCE",
  "STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY",
  "STATEMENT_CATEGORY_NOT_SPECIFIED_NOTICE",
] as const;

/** A moderator's categories: the notice's, and a breach of the community guidelines only. */
export const DSA_DECISION_CATEGORIES = [...DSA_NOTICE_CATEGORIES, "STATEMENT_CATEGORY_OTHER_VIOLATION_TC"] as const;
export type TDsaDecisionCategory = (typeof DSA_DECISION_CATEGORIES)[number];

/** What a decision does to the comment: disabled (unpublished), its visibility restricted, nothing. */
export const DSA_ACTIONS = ["remove", "restrict", "none"] as const;
/** The ground: a law (named) or the community guidelines (a clause). */
export const DSA_GROUNDS = ["legal", "terms"] as const;
const DSA_APPEAL_OUTCOMES = ["upheld", "reversed"] as const;

const DSA_LAW_MAX = 1000;
const DSA_TEXT_MAX = 2000;

// Control characters other than tab and line feed are refused, as in comment bodies.
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;

function zText(max: number, min = 1) {
  return z
    .string()
    .trim()
    .min(min, min <= 1 ? "is required" : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), "must not contain control characters (other than tab and line feed)");
}

export const ZDsaNoticeParams = ZCommentParams;

/** The notice (art. 16) a reader sends from the comment widget. */
export const ZDsaNoticeBody = z.object({
  jwt: z.string().optional(),
  category: z.enum(DSA_NOTICE_CATEGORIES, { error: `must be one of ${DSA_NOTICE_CATEGORIES.join(", ")}` }),
  law_or_reason: zText(DSA_LAW_MAX, 10),
  name: zText(200).optional(),
  email: zMemberEmail.optional(),
  good_faith: z.literal(true, { error: "must be true: confirm the notice is accurate and complete in good faith" }),
  /** The widget's language, for the mails to a notifier who is not signed in. */
  locale: z.enum(LOCALES).optional(),
  /** A solved captcha: required without jwt. */
  captcha_response: z.string().max(4096).optional(),
});
export type TDsaNoticeBody = z.output<typeof ZDsaNoticeBody>;

export type TDsaNoticeReceipt = {
  notice: { id: number; comment_id: number; category: string; created_at: string };
  /** false: the same notifier's undecided notice of this comment; nothing changed. */
  created: boolean;
};

const zId = zWholeNumber({ min: 1, max: 2_147_483_647 });

export const ZDsaListInput = z.object({
  status: z.enum(["open", "decided", "appealed", "all"]).default("open"),
});

/** A moderator's decision (art. 17) with its statement of reasons. */
export const ZDsaDecideInput = z
  .object({
    noticeId: zId,
    action: z.enum(DSA_ACTIONS),
    category: z.enum(DSA_DECISION_CATEGORIES),
    ground: z.enum(DSA_GROUNDS),
    /** The law named (legal) or the guidelines' clause (terms). */
    groundReference: zText(500),
    facts: zText(DSA_TEXT_MAX),
    automated: z.boolean(),
  })
  .refine((d) => d.ground === "terms" || d.category !== "STATEMENT_CATEGORY_OTHER_VIOLATION_TC", {
    message: "a breach of the community guidelines only is decided on the terms ground",
    path: ["ground"],
  });
export type TDsaDecideInput = z.output<typeof ZDsaDecideInput>;

const ZDsaAppealToken = z
  .string()
  .regex(/^[1-9]\d{0,9}\.[A-Za-z0-9_-]{43}$/, "is not an appeal link's token")
  .max(60);

export const ZDsaAppealQuery = z.object({ token: ZDsaAppealToken });
export const ZDsaAppealBody = z.object({ token: ZDsaAppealToken, text: zText(DSA_TEXT_MAX, 10) });

export const ZDsaDecideAppealInput = z.object({
  appealId: zId,
  outcome: z.enum(DSA_APPEAL_OUTCOMES),
  reasons: zText(DSA_TEXT_MAX),
});
export type TDsaDecideAppealInput = z.output<typeof ZDsaDecideAppealInput>;

/** The transparency report's period: days on the account's clocks, both included, at most about ten years. */
export const ZDsaReportInput = zDayRange(3700);
export type TDsaReportInput = z.output<typeof ZDsaReportInput>;

const ZCounts = z.array(z.object({ key: z.string(), count: z.number().int() }));

export const ZDsaReport = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  notices: z.number().int(),
  byCategory: ZCounts,
  byDecision: ZCounts,
  byGround: ZCounts,
  undecided: z.number().int(),
  hoursToDecide: z.object({ median: z.number().nullable(), p90: z.number().nullable() }),
  automatedDecisions: z.number().int(),
  appeals: z.object({
    submitted: z.number().int(),
    upheld: z.number().int(),
    reversed: z.number().int(),
    pending: z.number().int(),
  }),
});
export type TDsaReport = z.output<typeof ZDsaReport>;

/** A row of the moderators' queue (./queue.ts). */
type TDsaAppealRow = {
  id: number;
  party: string;
  submittedAt: string | null;
  text: string | null;
  outcome: string | null;
  reasons: string | null;
  decidedAt: string | null;
};

export type TDsaNoticeRow = {
  id: number;
  createdAt: string;
  category: string;
  lawOrReason: string;
  notifierName: string | null;
  notifierEmail: string | null;
  signedIn: boolean;
  comment: { id: number; text: string; url: string; headline: string | null; published: boolean } | null;
  decision: {
    action: string;
    category: string;
    ground: string;
    groundReference: string;
    facts: string;
    automated: boolean;
    decidedAt: string;
  } | null;
  appeals: TDsaAppealRow[];
};
