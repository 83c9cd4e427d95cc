/**
 * The plan copy: what a subscription keeps of its plan and group when it is made (prisma/schema.prisma
 * Subscription, "plan copy"), so later catalogue edits never change what a reader bought. One
 * function for every writer of a subscription from a plan (the dashboard's grant, the test
 * fixtures), so a copy cannot drift from another.
 */
import type { Prisma } from "../../generated/prisma/client";

type PlanWithGroup = Prisma.SubscriptionPlanGetPayload<{ include: { group: true } }>;

export function planCopy(plan: PlanWithGroup) {
  return {
    subscriptionType: plan.group.subscriptionType,
    planId: plan.id,
    groupId: plan.groupId,
    planName: plan.title,
    planDescription: plan.description,
    groupName: plan.group.name,
    groupDescription: plan.group.description,
    durationLength: plan.durationLength,
    durationUnit: plan.durationUnit,
    planAmountCents: plan.priceCents,
    planAmountCurrency: plan.priceCurrency,
  } satisfies Partial<Prisma.SubscriptionUncheckedCreateInput>;
}
