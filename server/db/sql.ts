/**
 * Raw SQL outside Prisma's model API goes through the tagged templates `$queryRaw` and
 * `$executeRaw` (with `Prisma.sql` and `Prisma.join` for the parts built in code), so every value
 * is a bound parameter. The one thing a parameter cannot be is a name: where a statement's table
 * or column is chosen in code, it goes in through `sqlIdentifier`, quoted as PostgreSQL quotes
 * identifiers. `$queryRawUnsafe` and `$executeRawUnsafe` stay in server/db and server/jobs
 * (eslint.config.js).
 */
import { Prisma } from "../generated/prisma/client";

/** A table, column or type name as a quoted identifier ("outgoing_emails" → `"outgoing_emails"`). */
export function sqlIdentifier(name: string): Prisma.Sql {
  if (name.length === 0 || name.length > 63 || name.includes("\0")) throw new Error(`Not an identifier: ${name}`);
  return Prisma.raw(`"${name.replaceAll('"', '""')}"`);
}
