/**
 * The options of an import and the source they shape, for the command line (scripts/import/cli.ts,
 * its flags) and the dashboard's Import page (dashboard/job.ts, the upload's options) alike:
 *
 * - which sources take which option (a Ghost site's address is for Ghost exports only, and so on);
 * - the source a run reads with them (sourceWithOptions).
 *
 * docs/migration.md states each option; dashboard.schema.ts ZImportOptions checks their shapes.
 */
import "server-only";

import type { TImportOptions } from "./dashboard/dashboard.schema";
import { GHOST_MEMBERS_SOURCE, ghostMembersSourceWith } from "./readers/ghost-members";
import { NEWSLETTER_CSV_SOURCE, newsletterCsvSource } from "./readers/newsletter-csv";
import type { PlanMappingOption } from "./readers/plans";
import { SUBSCRIPTIONS_SOURCE, subscriptionsSource } from "./readers/subscriptions";
import { contentApiSource, ghostSource, importSourceNamed } from "./sources";
import type { ImportSource } from "./types";

/** The sources whose statuses and access depend on when the file was exported (--as-of). */
export const AS_OF_SOURCES: readonly string[] = [SUBSCRIPTIONS_SOURCE, GHOST_MEMBERS_SOURCE, NEWSLETTER_CSV_SOURCE];

/** The sources that map old plans onto the account's (--plans): subscriptions, and Ghost's complimentary tiers. */
export const PLAN_SOURCES: readonly string[] = [SUBSCRIPTIONS_SOURCE, GHOST_MEMBERS_SOURCE];

type SourceOptions = {
  ghostUrl?: string;
  newsletter?: string;
  collections?: readonly string[];
  plans?: PlanMappingOption;
  /** Told, once the file is read, the old plans (or comped tiers) it names with their rows. */
  onPlans?: (plans: Map<string, number>) => void;
};

/** The source `name` reads with `options` (those it does not take are ignored); undefined: no such source. */
export function sourceWithOptions(name: string, options: SourceOptions): ImportSource | undefined {
  const { plans, onPlans } = options;
  switch (name) {
    case SUBSCRIPTIONS_SOURCE:
      return subscriptionsSource({ plans, onPlans });
    case GHOST_MEMBERS_SOURCE:
      return plans || onPlans ? ghostMembersSourceWith({ plans, onPlans }) : importSourceNamed(name);
    case NEWSLETTER_CSV_SOURCE:
      return options.newsletter !== undefined
        ? newsletterCsvSource({ newsletter: options.newsletter })
        : importSourceNamed(name);
    case "ghost":
      return options.ghostUrl !== undefined ? ghostSource({ ghostUrl: options.ghostUrl }) : importSourceNamed(name);
    case "content-api":
      return options.collections?.length
        ? contentApiSource({ collections: options.collections })
        : importSourceNamed(name);
    default:
      return importSourceNamed(name);
  }
}

/** The Import page's options `source` takes (site and announce: every source). */
export function sourceOptionNames(source: string): string[] {
  return [
    "site",
    "announce",
    ...(source === "ghost" ? ["ghost-url"] : []),
    ...(AS_OF_SOURCES.includes(source) ? ["as-of"] : []),
    ...(source === NEWSLETTER_CSV_SOURCE ? ["newsletter"] : []),
    ...(PLAN_SOURCES.includes(source) ? ["plans"] : []),
  ];
}

/** An option given to a source that does not take it, or that cannot hold: its field and why. */
type OptionProblem = { field: string; issue: string };

/** What is wrong with the Import page's `options` for `source` at `now` (none: they hold). */
export function importOptionsProblems(source: string, options: TImportOptions, now: Date): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (options.ghostUrl !== undefined && source !== "ghost")
    problems.push({ field: "ghost-url", issue: "is for Ghost exports only (the old Ghost site's address)" });
  if (options.asOf !== undefined && !AS_OF_SOURCES.includes(source))
    problems.push({ field: "as-of", issue: `is for the readers' files only: ${AS_OF_SOURCES.join(", ")}` });
  else if (options.asOf !== undefined && new Date(options.asOf) > now)
    problems.push({ field: "as-of", issue: "is in the future: give the instant the file was exported" });
  if (options.newsletter !== undefined && source !== NEWSLETTER_CSV_SOURCE)
    problems.push({ field: "newsletter", issue: `is for ${NEWSLETTER_CSV_SOURCE} files only` });
  if (options.plans !== undefined && !PLAN_SOURCES.includes(source))
    problems.push({ field: "plans", issue: `is for ${PLAN_SOURCES.join(" and ")} files only` });
  return problems;
}

/** The Import page's plan mapping as the plan resolver reads it. */
export function pagePlanMapping(plans: TImportOptions["plans"]): PlanMappingOption | undefined {
  if (!plans) return undefined;
  return { name: "the plan mapping of the Import page", mapping: new Map(plans.map((p) => [p.old, p.plan])) };
}
