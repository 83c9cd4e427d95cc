/**
 * Scrubbing logs and kept records of the reader's needles (./rules.ts): rows of the tables below
 * whose columns contain a needle are rewritten with each needle replaced (the row itself stays:
 * an audit entry, a webhook's event, an import's report). The table list is fixed here; no
 * identifier ever comes from input.
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { sqlIdentifier } from "../../db/sql";
import { Prisma } from "../../generated/prisma/client";
import { allNeedles, scrubJson, scrubText, type Needles } from "./rules";

type Column = { name: string; kind: "json" | "text" };

type ScrubSpec = {
  table: string;
  key: string;
  /** The key column's SQL type, for the update's cast. */
  keyType: "uuid" | "bigint" | "int";
  columns: readonly Column[];
  /** Rows of the account: a condition on the table's own columns. */
  scope: (accountId: number) => Prisma.Sql;
};

const json = (name: string): Column => ({ name, kind: "json" });
const text = (name: string): Column => ({ name, kind: "text" });
const OF_ACCOUNT = (accountId: number) => Prisma.sql`account_id = ${accountId}`;
const OF_ACCOUNT_EVENTS = (accountId: number) =>
  Prisma.sql`event_id IN (SELECT id FROM webhook_events WHERE account_id = ${accountId})`;
const OF_ACCOUNT_DELIVERIES = (accountId: number) =>
  Prisma.sql`delivery_id IN (SELECT id FROM webhook_deliveries WHERE ${OF_ACCOUNT_EVENTS(accountId)})`;
/** The key's cast, by its type (fixed SQL: a type name is no identifier to quote). */
const KEY_CAST = { uuid: Prisma.sql`uuid`, bigint: Prisma.sql`bigint`, int: Prisma.sql`int` } as const;

/** Webhooks' logs: what was sent, and what receivers answered (an echo of it). */
export const WEBHOOK_LOGS: readonly ScrubSpec[] = [
  { table: "webhook_events", key: "id", keyType: "bigint", columns: [json("payload")], scope: OF_ACCOUNT },
  { table: "webhook_deliveries", key: "id", keyType: "uuid", columns: [text("last_error")], scope: OF_ACCOUNT_EVENTS },
  {
    table: "webhook_attempts",
    key: "id",
    keyType: "uuid",
    columns: [text("error"), text("response_excerpt")],
    scope: OF_ACCOUNT_DELIVERIES,
  },
  {
    table: "webhook_test_receipts",
    key: "id",
    keyType: "bigint",
    columns: [json("headers"), text("body")],
    scope: OF_ACCOUNT,
  },
];

/** Payment records kept for the tax law: what the gateways sent and what checkout froze. */
export const PAYMENT_LOGS: readonly ScrubSpec[] = [
  { table: "gateway_events", key: "id", keyType: "int", columns: [json("payload"), text("error")], scope: OF_ACCOUNT },
  { table: "payments", key: "id", keyType: "int", columns: [json("details")], scope: OF_ACCOUNT },
  { table: "subscription_attempts", key: "id", keyType: "uuid", columns: [json("terms")], scope: OF_ACCOUNT },
  {
    table: "subscriptions",
    key: "id",
    keyType: "int",
    columns: [json("metadata"), json("preferred_identity"), text("notes"), text("custom_message")],
    scope: OF_ACCOUNT,
  },
];

/** The mail outbox (mails to others that name the reader; the reader's own are deleted). */
export const OUTBOX: readonly ScrubSpec[] = [
  {
    table: "outgoing_emails",
    key: "id",
    keyType: "uuid",
    columns: [text("subject"), text("text"), text("html"), text("last_error")],
    scope: OF_ACCOUNT,
  },
];

/** Imports' reports, the audit log, the job queue and reports others made of the reader's comments. */
export const OTHER_LOGS: readonly ScrubSpec[] = [
  {
    table: "import_runs",
    key: "id",
    keyType: "uuid",
    columns: [json("counts"), json("report"), text("error")],
    scope: OF_ACCOUNT,
  },
  {
    table: "import_uploads",
    key: "id",
    keyType: "uuid",
    columns: [json("dry_report"), json("options"), text("error")],
    scope: OF_ACCOUNT,
  },
  { table: "audit_logs", key: "id", keyType: "uuid", columns: [json("metadata")], scope: OF_ACCOUNT },
  { table: "jobs", key: "id", keyType: "uuid", columns: [json("payload"), text("last_error")], scope: OF_ACCOUNT },
  { table: "comment_reports", key: "id", keyType: "int", columns: [text("note")], scope: OF_ACCOUNT },
];

/** Scrub the rows of `spec` that name the reader; returns how many were rewritten. */
async function scrubTable(
  tx: TransactionClient,
  spec: ScrubSpec,
  accountId: number,
  needles: Needles,
): Promise<number> {
  const all = allNeedles(needles).map((n) => n.toLowerCase());
  if (!all.length) return 0;
  const hits = Prisma.join(
    spec.columns.flatMap((c) =>
      all.map((needle) => Prisma.sql`strpos(lower(coalesce(${sqlIdentifier(c.name)}::text, '')), ${needle}) > 0`),
    ),
    " OR ",
  );
  const cols = Prisma.join(spec.columns.map((c) => sqlIdentifier(c.name)));
  const rows = await tx.$queryRaw<Record<string, unknown>[]>`
    SELECT ${sqlIdentifier(spec.key)}::text AS erasure_key, ${cols} FROM ${sqlIdentifier(spec.table)}
     WHERE (${spec.scope(accountId)}) AND (${hits})`;
  let changed = 0;
  for (const row of rows) {
    const cells = new Map(Object.entries(row));
    const sets: Prisma.Sql[] = [];
    for (const c of spec.columns) {
      const current = cells.get(c.name);
      if (current === null || current === undefined) continue;
      let next: unknown;
      if (c.kind === "json") {
        const scrubbed = scrubJson(current, needles);
        if (!scrubbed.changed) continue;
        next = JSON.stringify(scrubbed.value);
      } else {
        if (typeof current !== "string") continue;
        next = scrubText(current, needles);
        if (next === current) continue;
      }
      sets.push(
        c.kind === "json"
          ? Prisma.sql`${sqlIdentifier(c.name)} = ${next}::jsonb`
          : Prisma.sql`${sqlIdentifier(c.name)} = ${next}`,
      );
    }
    if (!sets.length) continue;
    await tx.$executeRaw`
      UPDATE ${sqlIdentifier(spec.table)} SET ${Prisma.join(sets)}
       WHERE ${sqlIdentifier(spec.key)} = ${cells.get("erasure_key")}::${KEY_CAST[spec.keyType]}`;
    changed++;
  }
  return changed;
}

export async function scrubTables(
  tx: TransactionClient,
  specs: readonly ScrubSpec[],
  accountId: number,
  needles: Needles,
): Promise<void> {
  for (const spec of specs) await scrubTable(tx, spec, accountId, needles);
}
