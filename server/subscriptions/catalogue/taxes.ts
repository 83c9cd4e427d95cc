/**
 * Tax rules: a name, a rate in basis points (1800 = 18 %), where it applies (a country, a region
 * of it, or everywhere) and whether plan prices include it. Checkout (checkout.ts) applies the
 * enabled rules matching the subscriber's address.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { assertNoProblems, taxRuleProblems } from "./catalogue-rules";
import { auditCatalogue, notFound, sent, updateChange } from "./catalogue-shared";
import {
  ZCreateTaxRuleInput,
  ZIdInput,
  ZUpdateTaxRuleInput,
  type TCreateTaxRuleInput,
  type TUpdateTaxRuleInput,
} from "./catalogue.schema";

type Row = Prisma.TaxRuleGetPayload<object>;

const taxRuleToAdmin = (r: Row) => ({
  id: r.id,
  name: r.name,
  rateBasisPoints: r.rateBasisPoints,
  country: r.country,
  region: r.region,
  inclusive: r.inclusive,
  enabled: r.enabled,
});

export async function listTaxRules(db: Db, args: { actor: Actor }) {
  const rules = await db.taxRule.findMany({
    where: { accountId: args.actor.accountId, deletedAt: null },
    orderBy: { id: "asc" },
  });
  return rules.map(taxRuleToAdmin);
}

export async function createTaxRule(db: Db, args: { actor: Actor; input: TCreateTaxRuleInput; now?: Date }) {
  const input = parseInput(ZCreateTaxRuleInput, args.input);
  assertNoProblems(taxRuleProblems(input), "tax rule");
  return withTransaction(db, async (tx) => {
    const rule = await tx.taxRule.create({ data: { ...input, accountId: args.actor.accountId } });
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "tax_rule",
      change: "create",
      targetId: rule.id,
      metadata: { name: rule.name, rate_basis_points: rule.rateBasisPoints },
      now: args.now,
    });
    return taxRuleToAdmin(rule);
  });
}

export async function updateTaxRule(db: Db, args: { actor: Actor; input: TUpdateTaxRuleInput; now?: Date }) {
  const { id, ...patch } = parseInput(ZUpdateTaxRuleInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await tx.taxRule.findFirst({ where: { id, accountId: args.actor.accountId, deletedAt: null } });
    if (!current) throw notFound("Tax rule");
    const changes = sent(patch);
    assertNoProblems(taxRuleProblems({ ...taxRuleToAdmin(current), ...changes }), "tax rule");
    const rule = await tx.taxRule.update({ where: { id }, data: changes });
    const change = updateChange(changes);
    await auditCatalogue(tx, {
      actor: args.actor,
      kind: "tax_rule",
      change,
      targetId: id,
      metadata: { fields: Object.keys(changes) },
      now: args.now,
    });
    return taxRuleToAdmin(rule);
  });
}

export async function deleteTaxRule(db: Db, args: { actor: Actor; input: { id: number }; now?: Date }) {
  const { id } = parseInput(ZIdInput, args.input);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    if (!(await tx.taxRule.findFirst({ where: { id, accountId: args.actor.accountId, deletedAt: null } })))
      throw notFound("Tax rule");
    await tx.taxRule.update({ where: { id }, data: { deletedAt: now, enabled: false } });
    await auditCatalogue(tx, { actor: args.actor, kind: "tax_rule", change: "delete", targetId: id, now });
    return { id };
  });
}
