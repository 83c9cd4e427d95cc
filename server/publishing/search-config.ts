/**
 * The account's text-search configuration as a constant of the query (docs/publishing.md, "Search
 * in the account's language"). The database maps the account's language to a configuration
 * (search_account_ts_config, the search_language migration); asked inside a search, that stable
 * function of a subquery is unknown to the planner, which then guesses the match's selectivity and
 * scans every story of the account (50,000 stories: 140 ms a search against 6.5). Asked first, on
 * its own, its name goes into the search as a literal (`'hindi'::regconfig`): folded at planning,
 * estimated from the statistics, served by the GIN index.
 */
import "server-only";

import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";

/** A configuration's name as PostgreSQL prints a regconfig of pg_catalog: a plain identifier. */
const CONFIG_NAME = /^[a-z_][a-z0-9_]*$/;

/** `'<config>'::regconfig` for the account, `'simple'::regconfig` should the name be anything else. */
export async function searchConfigOf(db: Db, accountId: number): Promise<Prisma.Sql> {
  const [row] = await db.$queryRaw<{ config: string }[]>(
    Prisma.sql`SELECT search_account_ts_config(${accountId}::int)::text AS config`,
  );
  const name = row && CONFIG_NAME.test(row.config) ? row.config : "simple";
  return Prisma.raw(`'${name}'::regconfig`);
}
