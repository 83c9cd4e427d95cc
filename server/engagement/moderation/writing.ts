/**
 * Moderating what a reader writes (a comment, an edit, a UGC submission): the reader's history,
 * the account's scorer and settings, and the decision (moderation.ts), in one call. A banned
 * "reject" word is a 400 naming the field, never the word. Scored before the caller's transaction:
 * a plugged-in scorer may take a while, and must not hold the reader's lock.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import type { TCommentOp } from "../comments.schema";
import { activeBanSql, bannedError } from "./bans/bans";
import { detectLanguage } from "./language/detect";
import { SCORED_LANGUAGES } from "./language/languages.schema";
import { hasShippedWord } from "./language/shipped-words";
import { contentOf, decideModeration, isNewReader, type LanguageFinding } from "./moderation";
import { disposableDomains, NO_DOMAINS } from "./rules/disposable-domains";
import { applyRules, OPEN_PAGE, pageRefusal, type PageRules, type RuleHistory } from "./rules/rules";
import { scoreForAccount } from "./scorer/scoring";
import { scoringSettingsOf } from "./scorer/scoring-settings";
import type { ShadowRecord } from "./scorer/shadow";
import { moderationSettingsOf } from "./settings";
import type { TModerationSettingsView } from "./settings.schema";

/**
 * What moderation knows of a reader: the first comment's time, the published comments, a ban in
 * force, and what the rules before publishing read (rules/rules.ts RuleHistory).
 */
type ReaderHistory = Omit<RuleHistory, "publishedComments"> & {
  firstCommentAt: Date | null;
  publishedComments: number;
  ban: { until: string | null } | null;
};

/** What the rules read with the history; each part left out reads nothing. */
type RuleReads = {
  /** The page commented on (slow mode: the reader's latest comment there). */
  slowModePageId?: number | null;
  /** A repeat of that comment (the same body digest since then) is not counted: it is answered, not slowed. */
  slowModeRepeat?: { digest: string; since: Date } | null;
  /** Moderators' decisions since then (trust). */
  decidedSince?: Date | null;
  /** The reader's comments on pages other than `pageId` since then (repeated posts). */
  repeatsSince?: Date | null;
  pageId?: number | null;
};

/** At most this many of the reader's recent comments elsewhere are compared for repeats. */
const REPEAT_CANDIDATES = 20;

type OpsBody = { ops?: { insert?: unknown }[] };

/** The text of a stored body (its string inserts). */
function textOfBody(body: OpsBody | null): string {
  return (body?.ops ?? []).map((op) => (typeof op.insert === "string" ? op.insert : "")).join("");
}

/**
 * The reader's first comment time and number of published comments (published, not spam, not
 * deleted) in the account, the comment being edited left out, with `bans` the ban in force
 * (bans/bans.ts), and what the rules ask for (`rules`), in one statement.
 */
export async function readerHistory(
  db: Db,
  args: { accountId: number; memberId: number; now: Date; editing?: number; bans?: boolean; rules?: RuleReads },
): Promise<ReaderHistory> {
  const rules = args.rules ?? {};
  const decided = rules.decidedSince
    ? Prisma.sql`(count(*) FILTER (WHERE decided_at >= ${rules.decidedSince}::timestamptz
          AND moderation_state IN ('approved', 'rejected', 'spam')))::int AS decisions,
        (count(*) FILTER (WHERE decided_at >= ${rules.decidedSince}::timestamptz
          AND moderation_state IN ('rejected', 'spam')))::int AS rejections`
    : Prisma.sql`0 AS decisions, 0 AS rejections`;
  const lastOnPage =
    rules.slowModePageId != null
      ? Prisma.sql`max(created_at) FILTER (WHERE page_id = ${rules.slowModePageId}::int${
          rules.slowModeRepeat
            ? Prisma.sql` AND NOT (body_digest = ${rules.slowModeRepeat.digest}
                AND created_at >= ${rules.slowModeRepeat.since}::timestamptz)`
            : Prisma.empty
        }) AS last_on_page`
      : Prisma.sql`NULL::timestamptz AS last_on_page`;
  const elsewhere = rules.repeatsSince
    ? Prisma.sql`(SELECT json_agg(recent.body) FROM (
          SELECT body FROM comments
          WHERE account_id = ${args.accountId} AND author_id = ${args.memberId} AND id <> ${args.editing ?? 0}
            AND page_id IS DISTINCT FROM ${rules.pageId ?? null}::int AND deleted_at IS NULL
            AND created_at >= ${rules.repeatsSince}::timestamptz
          ORDER BY created_at DESC LIMIT ${REPEAT_CANDIDATES}) AS recent) AS elsewhere`
    : Prisma.sql`NULL::json AS elsewhere`;
  const [row] = await db.$queryRaw<
    {
      first: Date | null;
      published: number;
      ban: { until: string | null } | null;
      decisions: number;
      rejections: number;
      last_on_page: Date | null;
      elsewhere: OpsBody[] | null;
    }[]
  >`
    SELECT min(created_at) AS first,
           (count(*) FILTER (WHERE is_published AND NOT is_spam AND deleted_at IS NULL))::int AS published,
           ${args.bans ? activeBanSql(args) : Prisma.sql`NULL::json`} AS ban,
           ${decided}, ${lastOnPage}, ${elsewhere}
    FROM comments
    WHERE account_id = ${args.accountId} AND author_id = ${args.memberId} AND id <> ${args.editing ?? 0}`;
  return {
    firstCommentAt: row?.first ?? null,
    publishedComments: Number(row?.published ?? 0),
    ban: row?.ban ?? null,
    decisionsInWindow: Number(row?.decisions ?? 0),
    rejectionsInWindow: Number(row?.rejections ?? 0),
    lastOnPageAt: row?.last_on_page ? new Date(row.last_on_page) : null,
    textsElsewhere: (row?.elsewhere ?? []).map(textOfBody),
  };
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A page's refusal of a new comment: 403 closed, 429 slow mode with Retry-After. */
export function pageRefusalError(refusal: NonNullable<ReturnType<typeof pageRefusal>>): AppError {
  if (refusal.kind === "closed") {
    return new AppError("FORBIDDEN", "Comments are closed on this page.", {
      details: [{ field: "page", issue: "comments are closed" }],
    });
  }
  return new AppError(
    "RATE_LIMITED",
    `This page is in slow mode: you can comment again in ${refusal.retryAfterSeconds} seconds.`,
    {
      details: [{ field: "page", issue: `slow mode: wait ${refusal.retryAfterSeconds} seconds` }],
      headers: { "Retry-After": String(refusal.retryAfterSeconds) },
    },
  );
}

/** The decision on a reader's writing, or 400 (`field`) when it holds a banned "reject" word. */
export async function moderateWriting(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    ops: TCommentOp[];
    now: Date;
    /** The field the 400 names. */
    field: string;
    /** What is refused, for the message: "This comment cannot be posted". */
    refusal: string;
    /** The comment being edited (left out of the reader's history). */
    editing?: number;
    /** A guest is always a new reader (guests.ts). */
    guest?: boolean;
    /** 403 for a banned reader (bans/bans.ts), read with the history: one statement fewer than assertNotBanned. */
    refuseBanned?: boolean;
    /**
     * The page written on, for the rules before publishing (rules/rules.ts): its id (null for a page the
     * comment creates) and rules; `creating` for a new comment (closed pages and slow mode refuse it).
     */
    page?: {
      id: number | null;
      rules: PageRules;
      creating: boolean;
      /** The new comment's body digest and the repeat window's start: a repeat is never slowed (comments.ts). */
      repeat?: { digest: string; since: Date };
    };
    /** The reader's e-mail (disposable domains); none for guests. */
    email?: string | null;
    /** The account's settings when the caller read them already (alongside its own reads). */
    settings?: TModerationSettingsView;
  },
): Promise<{
  isPublished: boolean;
  isSpam: boolean;
  toxicity: number;
  reasons: string[];
  /**
   * A new comment's decision by the account's shadow configuration, beside the live one, when one
   * is being tried (scorer/shadow.ts): the caller records it once the comment has its id. Null otherwise.
   */
  shadow: ShadowRecord | null;
}> {
  const { now } = args;
  const page = args.page ?? null;
  const pageRules = page?.rules ?? OPEN_PAGE;
  // A closed page refuses before anything is read.
  if (page?.creating && pageRules.mode === "closed") throw pageRefusalError({ kind: "closed" });
  // The settings come from memory (settings.ts) or the caller, so the history's statement can read
  // only what they turn on.
  const settings = args.settings ?? (await moderationSettingsOf(db, args.accountId));
  // The scoring settings (adaptive layer, external scorer, shadow) from memory, beside the history.
  const [{ ban, ...history }, scoring] = await Promise.all([
    readerHistory(db, {
      ...args,
      bans: args.refuseBanned,
      rules: page
        ? {
            slowModePageId: page.creating && pageRules.slowModeSeconds > 0 && !args.guest ? page.id : null,
            slowModeRepeat: page.repeat ?? null,
            decidedSince:
              settings.trustRejectionRate > 0 && !args.guest
                ? new Date(now.getTime() - settings.trustWindowDays * DAY_MS)
                : null,
            repeatsSince:
              settings.repeatedPostWindowMinutes > 0
                ? new Date(now.getTime() - settings.repeatedPostWindowMinutes * MINUTE_MS)
                : null,
            pageId: page.id,
          }
        : undefined,
    }),
    scoringSettingsOf(db, args.accountId),
  ]);
  if (ban && args.refuseBanned) throw bannedError(ban.until === null ? null : new Date(ban.until));
  if (page?.creating) {
    const refusal = pageRefusal({
      page: pageRules,
      lastOnPageAt: history.lastOnPageAt,
      guest: args.guest === true,
      now,
    });
    if (refusal) throw pageRefusalError(refusal);
  }
  // What a scorer is told of the reader: never the rules' reads (a plugged-in scorer may be outside).
  const reader = {
    firstCommentAt: history.firstCommentAt,
    publishedComments: history.publishedComments,
    isNew: args.guest === true || isNewReader(history, now),
  };
  const content = contentOf(args.ops);
  const checksEmail = settings.holdDisposableEmails && !args.guest && Boolean(args.email);
  // A shadow configuration decides new comments only (not edits, nor UGC submissions).
  const withShadow = scoring.shadow !== null && page?.creating === true;
  // The comment's language (language/detect.ts): which scorer reads it, and the shipped words.
  const { language } = detectLanguage(content.text);
  const unreadable = language !== null && !SCORED_LANGUAGES.has(language);
  const [scores, domains] = await Promise.all([
    scoreForAccount(db, {
      accountId: args.accountId,
      input: { ...content, reader },
      scoring,
      withShadow,
      language: { unreadable, policy: settings.unscoredLanguages },
    }),
    checksEmail ? disposableDomains() : NO_DOMAINS,
  ]);
  const score = scores.live;
  // The rules before publishing are comments' (a page is given): a UGC submission has none.
  const rules = page
    ? applyRules({
        settings,
        page: pageRules,
        history,
        text: content.text,
        guest: args.guest === true,
        email: args.email ?? null,
        disposableDomains: domains,
      })
    : undefined;
  const shippedWord = settings.languageWordLists !== "off" && hasShippedWord(content.text, language);
  const finding = (unscored: boolean): LanguageFinding => ({ language, shippedWord, unscored });
  const decision = decideModeration({
    content,
    reader,
    score,
    settings,
    rules,
    language: finding(scores.unscored.live),
  });
  if (decision.reject) {
    throw new AppError("BAD_REQUEST", `${args.refusal}: it contains language this publication does not accept.`, {
      details: [{ field: args.field, issue: "contains language this publication does not accept" }],
    });
  }
  return {
    ...decision,
    shadow: shadowRecord({
      decision,
      scores,
      scoring,
      settings,
      content,
      reader,
      rules,
      language: finding(scores.unscored.shadow),
    }),
  };
}

/** The shadow configuration's decision with the same reader, rules and settings but its own score and threshold. */
function shadowRecord(args: {
  decision: { isPublished: boolean; isSpam: boolean; toxicity: number; reasons: string[] };
  scores: Awaited<ReturnType<typeof scoreForAccount>>;
  scoring: Awaited<ReturnType<typeof scoringSettingsOf>>;
  settings: TModerationSettingsView;
  content: ReturnType<typeof contentOf>;
  reader: Parameters<typeof decideModeration>[0]["reader"];
  rules: Parameters<typeof decideModeration>[0]["rules"];
  language: LanguageFinding;
}): ShadowRecord | null {
  const config = args.scoring.shadow;
  if (!config || !args.scores.shadow) return null;
  const shadow = decideModeration({
    content: args.content,
    reader: args.reader,
    score: args.scores.shadow,
    settings: { ...args.settings, toxicityThreshold: config.toxicityThreshold },
    rules: args.rules,
    language: args.language,
  });
  // A "reject" word refused the comment before (the live decision): the shadow reads the same words.
  if (shadow.reject) return null;
  const { decision } = args;
  return {
    live: {
      held: !decision.isPublished,
      toxicity: decision.toxicity,
      isSpam: decision.isSpam,
      reasons: decision.reasons,
    },
    shadow: { held: !shadow.isPublished, toxicity: shadow.toxicity, isSpam: shadow.isSpam, reasons: shadow.reasons },
    config: {
      adaptive: config.adaptive,
      externalScorer: config.externalScorer,
      toxicityThreshold: config.toxicityThreshold,
    },
  };
}
