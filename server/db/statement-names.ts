/**
 * Named prepared statements for Prisma's PostgreSQL adapter (`statementNameGenerator`).
 *
 * Prisma sends every statement unnamed, so PostgreSQL parses, analyses and plans it again on every
 * execution; a story with its relations joined in (one statement of several LATERAL subqueries)
 * or a comment count cost more to plan than to run. A statement named here is parsed once per
 * connection (node-postgres keeps the names it prepared) and its plan can be kept by PostgreSQL.
 *
 * Bounded: a text is named from its second execution on (statements built with a varying number
 * of parameters, such as `IN (…)` lists, are mostly seen once), and at most MAX_NAMED texts get a
 * name in a process, so that each connection prepares at most that many (PostgreSQL keeps each
 * prepared statement, and its plan once it settles on a generic one, in the connection's memory
 * until the connection closes: docs/database.md "Prepared statements"). Off with
 * DATABASE_PREPARED_STATEMENTS=false (a pooler in transaction mode that cannot keep them, such as
 * PgBouncer before 1.21).
 */
import { createHash } from "node:crypto";

const MAX_NAMED = 256;
/** Texts seen once and not named yet, counted; started again past this many. */
const MAX_SEEN = 20_000;

type StatementNames = { nameOf: (query: { sql: string }) => string; size: () => number };

/** A generator of names: "" (unnamed) for a text's first execution and past the bound. */
export function statementNames(maxNamed = MAX_NAMED): StatementNames {
  const named = new Map<string, string>();
  const seen = new Set<string>();
  return {
    nameOf({ sql }) {
      const name = named.get(sql);
      if (name !== undefined) return name;
      if (named.size >= maxNamed) return "";
      if (!seen.has(sql)) {
        if (seen.size >= MAX_SEEN) seen.clear();
        seen.add(sql);
        return "";
      }
      seen.delete(sql);
      const fresh = `mh_${createHash("sha256").update(sql).digest("base64url").slice(0, 24)}`;
      named.set(sql, fresh);
      return fresh;
    },
    size: () => named.size,
  };
}
