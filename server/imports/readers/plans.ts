/**
 * The plan mapping of a subscriptions import (docs/migration.md "The plan mapping"): which
 * Masthead plan each of the old system's plans becomes, reviewed by the operator before the run.
 *
 *   { "plans": { "gold-monthly": 12, "price_1Nx…": "Digital — Yearly", "legacy": null } }
 *
 * A value is a Masthead plan id, or a plan's exact title (unique among the account's plans that
 * are not deleted); null: not decided yet (its rows are refused). The template a dry run writes
 * lists every old plan of the file with null, and the account's plans under "available".
 */
import fs from "node:fs/promises";

import { z } from "zod";

import { nullPrototypeRecord } from "@/server/own-keys";

import type { Db } from "../../db/client";
import type { Prisma } from "../../generated/prisma/client";
import { periodInWords } from "../../subscriptions/catalogue/catalogue.schema";
import { displayName, parseBoundedJson } from "../limits";
import { ImportFileError } from "../types";

const ZPlanMapping = z
  .object({
    plans: z.record(z.string(), z.union([z.number().int().positive(), z.string().trim().min(1).max(500), z.null()])),
    available: z.unknown().optional(),
  })
  .strict();

/** Old plan (as the file writes it, trimmed) → Masthead plan id or title; null: undecided. */
type PlanMapping = Map<string, number | string | null>;

/**
 * A source's plan mapping option: the path of a mapping file (--plans), or a mapping already read
 * (the dashboard's, set on the Import page) with the name its refusals call it by.
 */
export type PlanMappingOption = string | { name: string; mapping: PlanMapping };

/** The mapping of `option` (read when it is a file) and its name; null: none given. */
export async function loadPlanMapping(
  option: PlanMappingOption | undefined,
): Promise<{ mapping: PlanMapping; name: string } | null> {
  if (option === undefined) return null;
  if (typeof option !== "string") return option;
  return { mapping: await readPlanMapping(option), name: option };
}

/** Read a mapping file (ImportFileError naming what is wrong). */
async function readPlanMapping(path: string): Promise<PlanMapping> {
  const name = displayName(path);
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ImportFileError(
      `The plan mapping ${name} cannot be read: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}.`,
    );
  }
  let json: unknown;
  try {
    json = parseBoundedJson(text, `The plan mapping ${name}`);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(`The plan mapping ${name} is not JSON: ${(error as Error).message}`);
  }
  const parsed = ZPlanMapping.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportFileError(
      `The plan mapping ${name} is not {"plans": {"<old plan>": <plan id> | "<plan title>" | null}}: ${issue.path.join(".") || "(top)"} ${issue.message}`,
    );
  }
  return new Map(Object.entries(parsed.data.plans).map(([old, target]) => [old.trim(), target]));
}

export type PlanWithGroup = Prisma.SubscriptionPlanGetPayload<{ include: { group: true } }>;

/** A mapped plan, or why the rows of that old plan are refused. */
type MappedPlan = { plan: PlanWithGroup } | { refuse: string };

/** Resolves mapped plans against the account's catalogue, once per old plan. */
export class PlanResolver {
  private readonly resolved = new Map<string, MappedPlan>();

  /**
   * `mapping` null: every old plan is refused as unmapped, or, with `byTitle` (Ghost's tiers
   * without a mapping file), maps to the account's plan with that exact title.
   */
  constructor(
    private readonly mapping: PlanMapping | null,
    private readonly mappingName: string | null,
    private readonly byTitle = false,
  ) {}

  async resolve(db: Db, accountId: number, oldPlan: string): Promise<MappedPlan> {
    const cached = this.resolved.get(oldPlan);
    if (cached) return cached;
    const answer = await this.lookup(db, accountId, oldPlan);
    this.resolved.set(oldPlan, answer);
    return answer;
  }

  private async lookup(db: Db, accountId: number, oldPlan: string): Promise<MappedPlan> {
    if (!this.mapping && !this.byTitle) {
      return {
        refuse: `its plan "${oldPlan}" is not mapped yet: give the plan mapping (--plans MAPPING.json, or on the Import page)`,
      };
    }
    if (this.mapping && !this.mapping.has(oldPlan)) {
      return { refuse: `unknown plan "${oldPlan}": it is not in the plan mapping ${this.mappingName}` };
    }
    const target = this.mapping ? this.mapping.get(oldPlan) : oldPlan;
    if (target === null || target === undefined) {
      return { refuse: `its plan "${oldPlan}" is left unmapped (null) in ${this.mappingName}` };
    }
    const where = { accountId, deletedAt: null, ...(typeof target === "number" ? { id: target } : { title: target }) };
    const plans = await db.subscriptionPlan.findMany({ where, include: { group: true }, take: 2 });
    if (plans.length === 0 && !this.mapping) {
      return {
        refuse: `no plan of the account is titled "${oldPlan}": give the plan mapping (--plans MAPPING.json, or on the Import page) or name a plan so`,
      };
    }
    if (plans.length === 0) {
      return { refuse: `its plan "${oldPlan}" maps to ${JSON.stringify(target)}, which is no plan of the account` };
    }
    if (plans.length > 1) {
      return {
        refuse: `its plan "${oldPlan}" maps to the title ${JSON.stringify(target)}, which several plans have: use the plan id`,
      };
    }
    return { plan: plans[0]! };
  }
}

/** The mapping template for `oldPlans` (with their row counts), listing the account's plans. */
export async function planMappingTemplate(db: Db, accountId: number, oldPlans: Map<string, number>): Promise<string> {
  const plans = await db.subscriptionPlan.findMany({
    where: { accountId, deletedAt: null },
    include: { group: { select: { name: true } } },
    orderBy: { id: "asc" },
  });
  const available = nullPrototypeRecord<string>();
  for (const p of plans) {
    available[String(p.id)] =
      `${p.title} (${p.group.name}; ${periodInWords(p.durationLength, p.durationUnit.toLowerCase())}${p.recurring ? ", recurring" : ""})`;
  }
  const sorted = [...oldPlans.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const template = {
    plans: Object.fromEntries(sorted.map(([old]) => [old, null])),
    available,
  };
  return `${JSON.stringify(template, null, 2)}\n`;
}
