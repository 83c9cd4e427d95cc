/**
 * A page's comment rules, as moderators set them in the dashboard (docs/engagement.md, "Rules
 * before publishing"). zod only, so a form can import it; the service is page-rules.ts.
 */
import { z } from "zod";

export const PAGE_RULE_MODES = ["open", "pre_moderation", "closed"] as const;
const SLOW_MODE_MAX_SECONDS = 86_400;

const ZPageRules = z.object({
  /** open: the account's moderation; pre_moderation: every comment waits; closed: no new comments. */
  mode: z.enum(PAGE_RULE_MODES),
  /** One comment per signed-in reader per this many seconds (0: off). */
  slowModeSeconds: z
    .number()
    .int("must be a whole number")
    .min(0, "must be 0 (off) or more")
    .max(SLOW_MODE_MAX_SECONDS, `must be at most ${SLOW_MODE_MAX_SECONDS} (a day)`),
});
export type TPageRules = z.output<typeof ZPageRules>;

/** Set a page's rules, the page named by its URL as comments name it (an absolute http(s) URL). */
export const ZSetPageRulesInput = ZPageRules.extend({
  url: z.string().trim().min(1, "is required").max(2000, "must be at most 2,000 characters"),
  /** Q&A: top-level comments are questions, readers see answered ones only. Absent: unchanged. */
  qaMode: z.boolean().optional(),
}).strict();
export type TSetPageRulesInput = z.output<typeof ZSetPageRulesInput>;

const ZPageRulesRow = ZPageRules.extend({
  qaMode: z.boolean(),
  pageId: z.number().int(),
  url: z.string(),
  headline: z.string().nullable(),
  updatedAt: z.date(),
});
export type TPageRulesRow = z.output<typeof ZPageRulesRow>;

export const ZSetPageRulesResult = z.object({ changed: z.boolean(), page: ZPageRulesRow });

/** The pages whose rules differ from the default (open, no slow mode, not Q&A), most recently changed first. */
export const ZPageRulesList = z.object({ pages: z.array(ZPageRulesRow) });

/** Why a page surges: comments arrive faster than moderators clear them, or nobody is on shift. */
const ZPublicSurge = z.object({
  reason: z.enum(["queue", "off_shift"]),
  action: z.enum(["pre_moderation", "slow_mode"]),
  slow_mode_seconds: z.number().int(),
  since: z.string(),
});

/**
 * The public answer (GET …/pages/{id}/comment_rules.json): what the widget says about the page.
 * `comment_mode` and `slow_mode_seconds` are what a new comment meets (the page's own rules, or a
 * surge's where stricter); `surge` says why, when a surge applies (null otherwise).
 */
export const ZPublicPageRules = z.object({
  comment_mode: z.enum(PAGE_RULE_MODES),
  slow_mode_seconds: z.number().int(),
  surge: ZPublicSurge.nullable(),
  /** Present (true) on a Q&A page: readers see answered questions only (docs/engagement.md "Q&A pages"). */
  qa_mode: z.literal(true).optional(),
});
export type TPublicPageRules = z.output<typeof ZPublicPageRules>;
