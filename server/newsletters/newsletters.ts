/**
 * Newsletters as staff configure them (docs/newsletters.md "Newsletters"): an account's newsletters,
 * each with its sender, design, audience (OPT_IN, MEMBERS, PAYING of chosen plans), tracking and an
 * optional digest. The slug is unique per account; plans and the digest's collection must be the
 * account's own (another account's id is refused as unknown). Archived newsletters are kept (their
 * sends and subscriptions stay) but readers no longer see or join them. Every write is audited.
 *
 * Also the dashboard's view of a newsletter's subscribers. The subscription rules themselves live
 * in ./subscriptions.ts.
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { isUniqueClash, withTransaction } from "../db/transaction";
import { AppError, type ErrorDetail } from "../errors";
import { Prisma, type Newsletter } from "../generated/prisma/client";
import {
  ZListSubscribersInput,
  ZNewsletterDesign,
  type TListSubscribersInput,
  type TNewsletterInput,
  type TNewsletterView,
  type TSubscriberView,
} from "./newsletters.schema";

type Counts = TNewsletterView["counts"];
const NO_COUNTS: Counts = { active: 0, pending: 0, unsubscribed: 0 };

function design(value: Prisma.JsonValue): TNewsletterView["design"] {
  const parsed = ZNewsletterDesign.safeParse(value);
  if (parsed.success) return parsed.data;
  const raw = (value && typeof value === "object" && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  return {
    logoUrl: typeof raw.logoUrl === "string" ? raw.logoUrl : null,
    accentColor: typeof raw.accentColor === "string" ? raw.accentColor : "#1d4ed8",
    backgroundColor: typeof raw.backgroundColor === "string" ? raw.backgroundColor : "#ffffff",
    footer: typeof raw.footer === "string" ? raw.footer : "",
  };
}

function schedule(value: Prisma.JsonValue | null): TNewsletterView["digestSchedule"] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const { days, time } = value as { days?: unknown; time?: unknown };
  return Array.isArray(days) && typeof time === "string" ? { days: days.map(Number), time } : null;
}

function newsletterView(row: Newsletter, counts: Counts = NO_COUNTS): TNewsletterView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    senderName: row.senderName,
    senderEmail: row.senderEmail,
    replyTo: row.replyTo,
    design: design(row.design),
    audience: row.audience,
    planIds: row.planIds,
    trackOpens: row.trackOpens,
    trackClicks: row.trackClicks,
    digestCollectionId: row.digestCollectionId,
    digestSchedule: schedule(row.digestSchedule),
    archivedAt: row.archivedAt,
    createdAt: row.createdAt,
    counts,
  };
}

async function countsOf(db: Db, newsletterIds: number[]): Promise<Map<number, Counts>> {
  const rows = await db.newsletterSubscription.groupBy({
    by: ["newsletterId", "status"],
    where: { newsletterId: { in: newsletterIds } },
    _count: { _all: true },
  });
  const counts = new Map<number, Counts>();
  for (const row of rows) {
    const c = counts.get(row.newsletterId) ?? { ...NO_COUNTS };
    if (row.status === "ACTIVE") c.active = row._count._all;
    else if (row.status === "PENDING") c.pending = row._count._all;
    else c.unsubscribed = row._count._all;
    counts.set(row.newsletterId, c);
  }
  return counts;
}

/** The account's newsletters (archived last), with their subscribers counted per status. */
export async function listNewsletters(
  db: Db,
  args: { actor: Actor; includeArchived?: boolean },
): Promise<TNewsletterView[]> {
  const rows = await db.newsletter.findMany({
    where: { accountId: args.actor.accountId, ...(args.includeArchived === false ? { archivedAt: null } : {}) },
    orderBy: [{ archivedAt: { sort: "asc", nulls: "first" } }, { name: "asc" }, { id: "asc" }],
  });
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => newsletterView(row, counts.get(row.id)));
}

/** One newsletter of the account; NOT_FOUND otherwise. */
export async function getNewsletterRow(db: Db, args: { accountId: number; id: number }): Promise<Newsletter> {
  const row = await db.newsletter.findFirst({ where: { id: args.id, accountId: args.accountId } });
  if (!row) throw new AppError("NOT_FOUND", "No such newsletter.");
  return row;
}

export async function getNewsletter(db: Db, args: { actor: Actor; id: number }): Promise<TNewsletterView> {
  const row = await getNewsletterRow(db, { accountId: args.actor.accountId, id: args.id });
  return newsletterView(row, (await countsOf(db, [row.id])).get(row.id));
}

/** The plans and the digest's collection must be the account's: UNPROCESSABLE naming the field otherwise. */
async function assertReferences(db: Db, accountId: number, input: TNewsletterInput): Promise<void> {
  const details: ErrorDetail[] = [];
  if (input.planIds.length > 0) {
    const found = await db.subscriptionPlan.count({ where: { accountId, id: { in: input.planIds } } });
    if (found !== new Set(input.planIds).size)
      details.push({ field: "planIds", issue: "names a plan this account does not have" });
  }
  if (input.digestCollectionId !== null) {
    const found = await db.collection.count({ where: { accountId, id: input.digestCollectionId, deletedAt: null } });
    if (found === 0)
      details.push({ field: "digestCollectionId", issue: "names a collection this account does not have" });
  }
  if (details.length > 0) throw new AppError("UNPROCESSABLE", "Check the highlighted fields.", { details });
}

function data(input: TNewsletterInput) {
  return {
    name: input.name,
    slug: input.slug,
    description: input.description,
    senderName: input.senderName,
    senderEmail: input.senderEmail,
    replyTo: input.replyTo,
    design: input.design,
    audience: input.audience,
    planIds: [...new Set(input.planIds)],
    trackOpens: input.trackOpens,
    trackClicks: input.trackClicks,
    digestCollectionId: input.digestCollectionId,
    digestSchedule: input.digestSchedule ?? Prisma.DbNull,
  } satisfies Prisma.NewsletterUncheckedUpdateInput;
}

const SLUG_TAKEN = new AppError("CONFLICT", "Another newsletter of this account has this slug.", {
  details: [{ field: "slug", issue: "is already used by another newsletter" }],
});

export async function createNewsletter(
  db: Db,
  args: { actor: Actor; input: TNewsletterInput; now: Date },
): Promise<TNewsletterView> {
  const accountId = args.actor.accountId;
  await assertReferences(db, accountId, args.input);
  try {
    return await withTransaction(db, async (tx) => {
      const row = await tx.newsletter.create({
        data: { ...data(args.input), accountId, createdAt: args.now },
      });
      await recordAudit(tx, {
        actor: args.actor,
        action: "newsletter.create",
        targetType: "newsletter",
        targetId: row.id,
        metadata: { slug: row.slug, audience: row.audience },
        now: args.now,
      });
      return newsletterView(row);
    });
  } catch (error) {
    if (isUniqueClash(error)) throw SLUG_TAKEN;
    throw error;
  }
}

export async function updateNewsletter(
  db: Db,
  args: { actor: Actor; id: number; input: TNewsletterInput; now: Date },
): Promise<TNewsletterView> {
  const accountId = args.actor.accountId;
  await getNewsletterRow(db, { accountId, id: args.id });
  await assertReferences(db, accountId, args.input);
  try {
    return await withTransaction(db, async (tx) => {
      const row = await tx.newsletter.update({
        where: { id: args.id },
        data: data(args.input),
      });
      await recordAudit(tx, {
        actor: args.actor,
        action: "newsletter.update",
        targetType: "newsletter",
        targetId: row.id,
        metadata: { slug: row.slug, audience: row.audience },
        now: args.now,
      });
      return newsletterView(row, (await countsOf(tx, [row.id])).get(row.id));
    });
  } catch (error) {
    if (isUniqueClash(error)) throw SLUG_TAKEN;
    throw error;
  }
}

/** Archive (readers no longer see or join it; nothing is deleted) or bring back. Idempotent. */
export async function archiveNewsletter(
  db: Db,
  args: { actor: Actor; id: number; archived: boolean; now: Date },
): Promise<TNewsletterView> {
  const row = await getNewsletterRow(db, { accountId: args.actor.accountId, id: args.id });
  if ((row.archivedAt !== null) === args.archived)
    return newsletterView(row, (await countsOf(db, [row.id])).get(row.id));
  return withTransaction(db, async (tx) => {
    const updated = await tx.newsletter.update({
      where: { id: row.id },
      data: { archivedAt: args.archived ? args.now : null },
    });
    await recordAudit(tx, {
      actor: args.actor,
      action: args.archived ? "newsletter.archive" : "newsletter.unarchive",
      targetType: "newsletter",
      targetId: row.id,
      metadata: { slug: row.slug },
      now: args.now,
    });
    return newsletterView(updated, (await countsOf(tx, [row.id])).get(row.id));
  });
}

/** A page of a newsletter's subscribers, newest first (keyset on id). */
export async function listSubscribers(
  db: Db,
  args: { actor: Actor } & TListSubscribersInput,
): Promise<{ items: TSubscriberView[]; nextCursor: number | null }> {
  const input = ZListSubscribersInput.parse(args);
  const newsletter = await getNewsletterRow(db, { accountId: args.actor.accountId, id: input.newsletterId });
  const rows = await db.newsletterSubscription.findMany({
    where: {
      newsletterId: newsletter.id,
      ...(input.status ? { status: input.status } : {}),
      ...(input.cursor ? { id: { lt: input.cursor } } : {}),
    },
    orderBy: { id: "desc" },
    take: input.limit + 1,
    include: { member: { select: { email: true, communicationEmail: true, name: true } } },
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      memberId: r.memberId,
      email: r.member.email,
      name: r.member.name,
      status: r.status,
      consentSource: r.consentSource,
      consentedAt: r.consentedAt,
      confirmedAt: r.confirmedAt,
      unsubscribedAt: r.unsubscribedAt,
      unsubscribeSource: r.unsubscribeSource,
    })),
    nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null,
  };
}
