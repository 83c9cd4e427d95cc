/**
 * Coupons: a code (upper-case, unique per account, never reused even after deletion, since
 * redemptions name it), a percent (1-100) or fixed discount (cents in a currency), validity
 * dates, limits in total and per subscriber, and the plans or groups it applies to (none: all).
 *
 * Uses are counted by checkout (checkout.ts): `redemptionsCount` is raised by one conditional
 * UPDATE (WHERE redemptions_count < max_redemptions) in the checkout's transaction together with
 * a coupon_redemptions row, so concurrent checkouts cannot pass the limit.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { DiscountType, Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { assertNoProblems, couponProblems } from "./catalogue-rules";
import { auditCatalogue, notFound, sent, toEnum, updateChange } from "./catalogue-shared";
import {
  ZCreateCouponInput,
  ZIdInput,
  ZUpdateCouponInput,
  type TCouponFields,
  type TCreateCouponInput,
  type TUpdateCouponInput,
} from "./catalogue.schema";

type Row = Prisma.CouponGetPayload<object>;

function couponToAdmin(c: Row) {
  return {
    id: c.id,
    code: c.code,
    title: c.title,
    discountType: c.discountType.toLowerCase() as "percent" | "fixed",
    percentOff: c.percentOff,
    amountOffCents: c.amountOffCents,
    amountCurrency: c.amountCurrency,
    validFrom: c.validFrom.toISOString(),
    validUntil: c.validUntil?.toISOString() ?? null,
    maxRedemptions: c.maxRedemptions,
    maxRedemptionsPerSubscriber: c.maxRedemptionsPerSubscriber,
    redemptionsCount: c.redemptionsCount,
    planIds: c.planIds as number[],
    groupIds: c.groupIds as number[],
    enabled: c.enabled,
  };
}

async function assertTargets(tx: Db, accountId: number, planIds: readonly number[], groupIds: readonly number[]) {
  const plans = [...new Set(planIds)];
  const groups = [...new Set(groupIds)];
  if (
    plans.length &&
    (await tx.subscriptionPlan.count({ where: { accountId, id: { in: plans }, deletedAt: null } })) !== plans.length
  )
    assertNoProblems([{ field: "planIds", issue: "names an unknown plan" }], "coupon");
  if (
    groups.length &&
    (await tx.subscriptionGroup.count({ where: { accountId, id: { in: groups }, deletedAt: null } })) !== groups.length
  )
    assertNoProblems([{ field: "groupIds", issue: "names an unknown group" }], "coupon");
}

function record(row: Row): TCouponFields {
  const c = couponToAdmin(row);
  return { ...c, validFrom: row.validFrom, validUntil: row.validUntil };
}

export async function listCoupons(db: Db, args: { actor: Actor }) {
  const coupons = await db.coupon.findMany({
    where: { accountId: args.actor.accountId, deletedAt: null },
    orderBy: { id: "desc" },
  });
  return coupons.map(couponToAdmin);
}

export async function createCoupon(db: Db, args: { actor: Actor; input: TCreateCouponInput; now?: Date }) {
  const input = parseInput(ZCreateCouponInput, args.input);
  assertNoProblems(couponProblems(input), "coupon");
  const accountId = args.actor.accountId;
  return withTransaction(
    db,
    async (tx) => {
      await assertTargets(tx, accountId, input.planIds, input.groupIds);
      if (await tx.coupon.findUnique({ where: { accountId_code: { accountId, code: input.code } } }))
        throw new AppError("CONFLICT", "A coupon with this code exists.", {
          details: [{ field: "code", issue: "is taken" }],
        });
      const coupon = await tx.coupon.create({
        data: {
          ...input,
          accountId,
          discountType: toEnum(input.discountType) as DiscountType,
          planIds: [...new Set(input.planIds)],
          groupIds: [...new Set(input.groupIds)],
        },
      });
      await auditCatalogue(tx, {
        actor: args.actor,
        kind: "coupon",
        change: "create",
        targetId: coupon.id,
        metadata: { code: coupon.code },
        now: args.now,
      });
      return couponToAdmin(coupon);
    },
    { retryUniqueClashes: false },
  );
}

export async function updateCoupon(db: Db, args: { actor: Actor; input: TUpdateCouponInput; now?: Date }) {
  const { id, ...patch } = parseInput(ZUpdateCouponInput, args.input);
  const accountId = args.actor.accountId;
  return withTransaction(db, async (tx) => {
    const current = await tx.coupon.findFirst({ where: { id, accountId, deletedAt: null } });
    if (!current) throw notFound("Coupon");
    const changes = sent(patch);
    const merged = { ...record(current), ...changes };
    assertNoProblems(couponProblems(merged), "coupon");
    await assertTargets(tx, accountId, changes.planIds ?? [], changes.groupIds ?? []);
    const { discountType, ...rest } = changes;
    const data: Prisma.CouponUpdateInput = { ...rest };
    if (discountType) data.discountType = toEnum(discountType) as DiscountType;
    const coupon = await tx.coupon.update({ where: { id }, data });
    const change = updateChange(changes);
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "coupon",
      change,
      targetId: id,
      metadata: { code: coupon.code, fields: Object.keys(changes) },
      now: args.now,
    });
    return couponToAdmin(coupon);
  });
}

export async function deleteCoupon(db: Db, args: { actor: Actor; input: { id: number }; now?: Date }) {
  const { id } = parseInput(ZIdInput, args.input);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const coupon = await tx.coupon.findFirst({ where: { id, accountId: args.actor.accountId, deletedAt: null } });
    if (!coupon) throw notFound("Coupon");
    await tx.coupon.update({ where: { id }, data: { deletedAt: now, enabled: false } });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "coupon",
      change: "delete",
      targetId: id,
      metadata: { code: coupon.code },
      now,
    });
    return { id };
  });
}
