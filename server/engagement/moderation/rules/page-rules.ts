/**
 * Each page's comment rules (docs/engagement.md, "Rules before publishing"): open (the account's
 * moderation), pre-moderation (every comment waits) or closed (no new comments), and slow mode.
 * Stored on the page (pages.comment_mode, pages.slow_mode_seconds); comments read them with the
 * page they already read, so a comment create reads nothing more. Set by owners and moderators,
 * each change audited ("page_comment_rules.update", the actor, old and new rules).
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { PageCommentMode as DbPageCommentMode, Page } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { decodePageId, findPage, findPageByAnyForm, normalizePageUrl } from "../../pages";
import { requireModerator } from "../moderator";
import { effectiveRules, openSurgesOf, surgesOn } from "../surges/surges";
import {
  ZSetPageRulesInput,
  type TPageRules,
  type TPageRulesRow,
  type TPublicPageRules,
  type TSetPageRulesInput,
} from "./page-rules.schema";
import { OPEN_PAGE, type PageRules } from "./rules";

const MODE_FROM_DB = { OPEN: "open", PRE_MODERATION: "pre_moderation", CLOSED: "closed" } as const;
const MODE_TO_DB = { open: "OPEN", pre_moderation: "PRE_MODERATION", closed: "CLOSED" } as const satisfies Record<
  TPageRules["mode"],
  DbPageCommentMode
>;

/** A page's rules (no page yet: open, no slow mode). */
export function pageRulesOf(page: Pick<Page, "commentMode" | "slowModeSeconds"> | null): PageRules {
  if (!page) return OPEN_PAGE;
  return { mode: MODE_FROM_DB[page.commentMode], slowModeSeconds: page.slowModeSeconds };
}

function rowOf(page: Page): TPageRulesRow {
  return {
    pageId: page.id,
    url: page.url,
    headline: page.headline,
    ...pageRulesOf(page),
    qaMode: page.qaMode,
    updatedAt: page.updatedAt,
  };
}

/** The pages whose rules are not the default, most recently changed first (at most 200). */
export async function listPageRules(db: Db, args: { actor: StaffActor }): Promise<{ pages: TPageRulesRow[] }> {
  requireModerator(args.actor);
  const pages = await db.page.findMany({
    where: {
      accountId: args.actor.accountId,
      OR: [{ commentMode: { not: "OPEN" } }, { slowModeSeconds: { gt: 0 } }, { qaMode: true }],
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return { pages: pages.map(rowOf) };
}

/**
 * Set the rules of the account's page at `url`, written in any form (pages.ts findPageByAnyForm:
 * scheme, "www.", trailing "/", tracking parameters, fragment, parameter order); 404 when no
 * comment was ever posted there (pages are made by their first comment), 409 when the forms name
 * several pages. Setting the rules it has changes nothing and writes nothing.
 */
export async function setPageRules(
  db: Db,
  args: { actor: StaffActor; input: TSetPageRulesInput; now: Date; ip?: string | null },
): Promise<{ changed: boolean; page: TPageRulesRow }> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZSetPageRulesInput, args.input);
  const url = normalizePageUrl(input.url, "url");
  return withTransaction(db, async (tx) => {
    const found = await findPageByAnyForm(tx, actor.accountId, url, "url");
    if (!found)
      throw new AppError("NOT_FOUND", "No page with comments at this URL.", {
        details: [{ field: "url", issue: "has no comments page" }],
      });
    // Two moderators at once: the second waits and compares with what the first set.
    await tx.$queryRaw`SELECT id FROM pages WHERE id = ${found.id} FOR UPDATE`;
    const page = await tx.page.findUniqueOrThrow({ where: { id: found.id } });
    const before = { ...pageRulesOf(page), qaMode: page.qaMode };
    const qaMode = input.qaMode ?? page.qaMode;
    if (before.mode === input.mode && before.slowModeSeconds === input.slowModeSeconds && before.qaMode === qaMode) {
      return { changed: false, page: rowOf(page) };
    }
    const updated = await tx.page.update({
      where: { id: page.id },
      data: { commentMode: MODE_TO_DB[input.mode], slowModeSeconds: input.slowModeSeconds, qaMode, updatedAt: now },
    });
    await recordAudit(tx, {
      actor,
      action: "page_comment_rules.update",
      targetType: "page",
      targetId: page.id,
      metadata: {
        url: page.url,
        from: before,
        to: { mode: input.mode, slowModeSeconds: input.slowModeSeconds, qaMode },
      },
      ip: args.ip,
      now,
    });
    return { changed: true, page: rowOf(updated) };
  });
}

/**
 * The public rules of the page a comment list names (an unknown page: open): what a new comment
 * meets, the page's own rules or an open surge's where stricter (../surges/surges.ts), and the surge that
 * applies (a page's queue surge before the account's off-shift one).
 */
export async function publicPageRules(
  db: Db,
  args: { accountId: number; encodedUrl: string },
): Promise<TPublicPageRules> {
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const [page, open] = await Promise.all([findPage(db, args.accountId, url), openSurgesOf(db, args.accountId)]);
  const surges = surgesOn(open, page?.id ?? null);
  const rules = effectiveRules(pageRulesOf(page), surges);
  const surge = surges.find((s) => s.reason === "queue") ?? surges[0] ?? null;
  return {
    comment_mode: rules.mode,
    slow_mode_seconds: rules.slowModeSeconds,
    surge: surge
      ? {
          reason: surge.reason,
          action: surge.action,
          slow_mode_seconds: surge.slowModeSeconds,
          since: surge.startedAt.toISOString(),
        }
      : null,
    ...(page?.qaMode ? { qa_mode: true as const } : {}),
  };
}
