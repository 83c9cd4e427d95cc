/**
 * The dashboard's paywall offers (REVENUE; OWNER passes): list, create, update, archive. An
 * offer names plans of the account, an existing coupon, a trial within what each plan with a trial allows,
 * copy per locale (cleaned at save by its schema) and a segment (./segment.ts). Every save is
 * checked against the catalogue (422 naming the field), audited, and makes at most one default
 * offer: saving one as default clears the flag on the others in the same transaction.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Offer } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { addDuration } from "../subscribers/subscription-state";
import {
  ZOfferInput,
  ZSegment,
  type TOfferInput,
  type TOfferValues,
  type TOfferView,
  type TSegment,
} from "./offers.schema";

const unprocessable = (field: string, issue: string) =>
  new AppError("UNPROCESSABLE", `${field} ${issue}.`, { details: [{ field, issue }] });

type CopyMap = Record<string, { headline: string; body: string }>;

/** A stored segment, read back through its schema (a row written before a new condition gets its default). */
export function segmentOf(value: unknown): TSegment {
  const parsed = ZSegment.safeParse(value ?? {});
  return parsed.success ? parsed.data : ZSegment.parse({});
}

export function planIdsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];
}

function offerView(row: Offer): TOfferView {
  const copy = (row.copy ?? {}) as CopyMap;
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    isDefault: row.isDefault,
    enabled: row.enabled,
    planIds: planIdsOf(row.planIds),
    couponCode: row.couponCode,
    trialDays: row.trialDays,
    defaultLocale: row.defaultLocale,
    copy: Object.entries(copy).map(([locale, c]) => ({ locale, headline: c.headline, body: c.body })),
    segment: segmentOf(row.segment),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The catalogue rules: plans of this account and on sale, the coupon exists, the trial fits each plan. */
async function assertReferences(db: Db, accountId: number, input: TOfferValues, now: Date): Promise<void> {
  const plans = await db.subscriptionPlan.findMany({
    where: { accountId, id: { in: input.planIds }, deletedAt: null },
    select: {
      id: true,
      title: true,
      recurring: true,
      trialPeriodEnabled: true,
      maxTrialPeriodLength: true,
      maxTrialPeriodUnit: true,
    },
  });
  const byId = new Map(plans.map((p) => [p.id, p]));
  const missing = input.planIds.find((id) => !byId.has(id));
  if (missing !== undefined)
    throw unprocessable("planIds", `names plan ${missing}, which is not a plan of this publisher`);
  if (input.couponCode) {
    const coupon = await db.coupon.findUnique({
      where: { accountId_code: { accountId, code: input.couponCode } },
      select: { enabled: true, deletedAt: true },
    });
    if (!coupon || coupon.deletedAt) throw unprocessable("couponCode", "is not a coupon of this publisher");
    if (!coupon.enabled) throw unprocessable("couponCode", "is a disabled coupon");
  }
  if (input.trialDays !== null) {
    // The trial is asked of the plans that have one (the others are sold without); it must fit each.
    const wanted = addDuration(now, input.trialDays, "DAYS")!.getTime();
    const withTrial = input.planIds
      .map((id) => byId.get(id)!)
      .filter((p) => p.recurring && p.trialPeriodEnabled && p.maxTrialPeriodLength !== null && p.maxTrialPeriodUnit);
    if (!withTrial.length) throw unprocessable("trialDays", "cannot be given: no plan of this offer has a trial");
    for (const p of withTrial) {
      const max = addDuration(now, p.maxTrialPeriodLength!, p.maxTrialPeriodUnit!)!.getTime();
      if (wanted > max)
        throw unprocessable(
          "trialDays",
          `is longer than plan "${p.title}" allows (${p.maxTrialPeriodLength} ${p.maxTrialPeriodUnit!.toLowerCase()})`,
        );
    }
  }
}

function rowData(input: TOfferValues) {
  const copy: CopyMap = Object.create(null) as CopyMap;
  for (const c of input.copy) copy[c.locale] = { headline: c.headline, body: c.body };
  return {
    name: input.name,
    priority: input.priority,
    isDefault: input.isDefault,
    enabled: input.enabled,
    planIds: input.planIds,
    couponCode: input.couponCode,
    trialDays: input.trialDays,
    defaultLocale: input.defaultLocale,
    copy: { ...copy },
    segment: input.segment,
  };
}

export async function listOffers(db: Db, args: { actor: Actor }): Promise<TOfferView[]> {
  const rows = await db.offer.findMany({
    where: { accountId: args.actor.accountId, archivedAt: null },
    orderBy: [{ priority: "asc" }, { id: "asc" }],
  });
  return rows.map(offerView);
}

export async function getOfferOrThrow(db: Db, args: { actor: Actor; id: number }): Promise<TOfferView> {
  const row = await db.offer.findFirst({ where: { id: args.id, accountId: args.actor.accountId, archivedAt: null } });
  if (!row) throw new AppError("NOT_FOUND", "There is no such offer.");
  return offerView(row);
}

/** Create (id absent) or update an offer. */
export async function saveOffer(
  db: Db,
  args: { actor: Actor; id?: number; offer: TOfferInput; now?: Date; ip?: string | null },
): Promise<TOfferView> {
  const input = parseInput(ZOfferInput, args.offer);
  const accountId = args.actor.accountId;
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    await assertReferences(tx, accountId, input, now);
    if (args.id !== undefined) {
      const before = await tx.offer.findFirst({ where: { id: args.id, accountId, archivedAt: null } });
      if (!before) throw new AppError("NOT_FOUND", "There is no such offer.");
    }
    if (input.isDefault)
      await tx.offer.updateMany({
        where: { accountId, isDefault: true, ...(args.id !== undefined ? { id: { not: args.id } } : {}) },
        data: { isDefault: false },
      });
    const row =
      args.id === undefined
        ? await tx.offer.create({ data: { accountId, ...rowData(input) } })
        : await tx.offer.update({ where: { id: args.id }, data: rowData(input) });
    await recordAudit(tx, {
      actor: args.actor,
      action: args.id === undefined ? "offer.create" : "offer.update",
      targetType: "offer",
      targetId: row.id,
      metadata: { name: input.name, planIds: input.planIds, couponCode: input.couponCode, trialDays: input.trialDays },
      ip: args.ip,
      now,
    });
    return offerView(row);
  });
}

/** Archive an offer: it leaves the paywall and the list; a running test of it must be stopped first. */
export async function archiveOffer(db: Db, args: { actor: Actor; id: number; now?: Date }): Promise<{ ok: true }> {
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    const row = await tx.offer.findFirst({ where: { id: args.id, accountId, archivedAt: null } });
    if (!row) throw new AppError("NOT_FOUND", "There is no such offer.");
    const running = await tx.experiment.count({
      where: { accountId, status: "running", OR: [{ offerAId: row.id }, { offerBId: row.id }] },
    });
    if (running) throw new AppError("CONFLICT", "A running test shows this offer: stop the test first.");
    await tx.offer.update({ where: { id: row.id }, data: { archivedAt: args.now ?? new Date(), isDefault: false } });
    await recordAudit(tx, {
      actor: args.actor,
      action: "offer.archive",
      targetType: "offer",
      targetId: row.id,
      now: args.now,
    });
    return { ok: true as const };
  });
}
