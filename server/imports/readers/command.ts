/**
 * The command line's options of the subscriptions import (scripts/import/cli.ts): `--plans
 * MAPPING.json`, the reviewed plan mapping a real run needs, and `--plans-template OUT.json`,
 * where the mapping template goes (printed after the report when a dry run has no mapping).
 * Ghost's members import takes `--plans` too: its complimentary members' tiers (ghost-comps.ts).
 */
import fs from "node:fs/promises";

import type { Db } from "../../db/client";
import { GHOST_MEMBERS_SOURCE } from "./ghost-members";
import { planMappingTemplate } from "./plans";
import { SUBSCRIPTIONS_SOURCE } from "./subscriptions";

type PlanOptions = { from: string; dryRun: boolean; plans?: string; plansTemplate?: string };

/** What is wrong with the plan options of a command line, or null. */
export function planOptionsError(command: PlanOptions): string | null {
  if (command.from === GHOST_MEMBERS_SOURCE && !command.plansTemplate) return null;
  if (command.from !== SUBSCRIPTIONS_SOURCE) {
    return command.plans || command.plansTemplate
      ? `--plans goes with --from ${SUBSCRIPTIONS_SOURCE} or ${GHOST_MEMBERS_SOURCE} (its complimentary members' tiers), --plans-template with --from ${SUBSCRIPTIONS_SOURCE} only.`
      : null;
  }
  if (!command.dryRun && !command.plans) {
    return "A subscriptions import needs the plan mapping: --plans MAPPING.json (a --dry-run without it writes a template with --plans-template OUT.json).";
  }
  return null;
}

/**
 * What a subscriptions run of `command` does with the old plans its file names: the plan mapping
 * template to write or print once the run is over; null when the run has its mapping and wants no
 * template, or is of another source.
 */
export function planTemplateAfterRun(command: PlanOptions): {
  onPlans: (plans: Map<string, number>) => void;
  afterRun: (db: Db, accountId: number, out: (text: string) => void) => Promise<void>;
} | null {
  if (command.from !== SUBSCRIPTIONS_SOURCE || (!command.plansTemplate && command.plans)) return null;
  let found = new Map<string, number>();
  return {
    onPlans: (plans) => (found = plans),
    afterRun: async (db, accountId, out) => {
      const template = await planMappingTemplate(db, accountId, found);
      const counts = [...found.entries()].map(([plan, rows]) => `"${plan}" (${rows} row${rows === 1 ? "" : "s"})`);
      out(`\nOld plans in the file (${found.size}): ${counts.join(", ") || "none"}`);
      if (command.plansTemplate) {
        await fs.writeFile(command.plansTemplate, template);
        out(`Plan mapping template written to ${command.plansTemplate}: fill in each null, then run with --plans.`);
      } else {
        out(`Plan mapping template (fill in each null, save it, then run with --plans FILE):\n${template}`);
      }
    },
  };
}
