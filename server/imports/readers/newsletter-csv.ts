/**
 * A newsletter list as an import source (`--from newsletter-csv`, docs/migration.md "Newsletter
 * list CSV → newsletter subscriptions"; docs/newsletters.md "Importing a list"): one row per
 * reader and newsletter, with the consent the old system holds. Columns: `email` (required),
 * `name`, the consent date (`consented_at`, `consent_date` or `consent date`; required in each
 * row), `newsletter` (the newsletter's slug), `status`, `source`. Others are ignored, said once.
 *
 * Each row is one NewsletterSubscription, ACTIVE, with the file's consent date and the consent
 * source "import:csv", of the member with that e-mail: found or created through the one
 * find-or-create of imported readers (comments/authors.ts planMember, which creates through
 * server/members), unverified and without a password when created (source "newsletter-csv").
 * - The newsletter: the row's `newsletter` slug; when empty, the default one (`--newsletter`),
 *   else the account's only newsletter. A slug the account has not (or an archived newsletter):
 *   the row is refused.
 * - `status` empty, "subscribed", "active", "confirmed" or "opted_in": subscribed. "unsubscribed",
 *   "cleaned", "bounced", "complained", "pending", "unconfirmed": skipped (no consent to mail
 *   them now; a pending one would need a confirmation mail, which an import never sends).
 * - No consent date: refused (an ACTIVE subscription always says when consent was given; take the
 *   date from the old system, or its sign-up date). A date in the future, or one that could be
 *   day/month or month/day: refused.
 * - Refused too: a row without a usable e-mail, an e-mail and newsletter an earlier row has (two
 *   spellings of one e-mail are one reader), a row cut off. Skipped: an address the account
 *   suppresses (bounces, complaints), a reader already subscribed, waiting for their confirmation,
 *   or who left that newsletter in Masthead (their later choice stands).
 * Each subscription is recorded (import_records kind "newsletter-subscription", by
 * "<newsletter slug>:<e-mail>"), so a second run changes nothing and a killed run resumes.
 */
import "server-only";

import type { Db } from "../../db/client";
import { suppressedAmong } from "../../newsletters/suppression";
import { recordConsent } from "../../privacy/consent/consent";
import { newsletterPurpose } from "../../privacy/consent/consent.schema";
import { graphemePrefix } from "../../text/graphemes";
import { MEMBER_KIND, noteSpelling, planMember } from "../comments/authors";
import type { ImportContext, ImportFile, ImportItem, ImportSource, ItemPlan, PlanEffect } from "../types";
import { parseConsentDate } from "./consent-date";
import { indexCsv, readCsv, type CsvRow, type CsvSpec } from "./csv";
import { normaliseEmail } from "./values";

export const NEWSLETTER_CSV_SOURCE = "newsletter-csv";
const NEWSLETTER_SUBSCRIPTION_KIND = "newsletter-subscription";
export const NEWSLETTER_CSV_CONSENT_SOURCE = "import:csv";

const CONSENT_COLUMNS = ["consented_at", "consent_date", "consent date"] as const;

const SPEC: CsvSpec = {
  title: "A newsletter list",
  required: ["email", CONSENT_COLUMNS],
  known: ["email", "name", ...CONSENT_COLUMNS, "newsletter", "status", "source"],
};

const SUBSCRIBED = new Set(["", "subscribed", "active", "confirmed", "opted_in", "opted-in", "opt-in"]);
const NOT_SUBSCRIBED = new Set(["unsubscribed", "cleaned", "bounced", "complained", "pending", "unconfirmed"]);

type RowItem = ImportItem & { row: CsvRow; email: string | null; newsletter: string };

type Newsletter = { id: number; slug: string; archived: boolean };

const consentText = (row: CsvRow) => CONSENT_COLUMNS.map((c) => row.values[c]?.trim()).find(Boolean) ?? "";

/** The newsletter-csv source; `newsletter`: the slug of the default newsletter (rows with none). */
export function newsletterCsvSource(options: { newsletter?: string } = {}): ImportSource<RowItem> {
  const fallback = options.newsletter?.trim().toLowerCase() ?? "";
  return {
    name: NEWSLETTER_CSV_SOURCE,
    description:
      "a newsletter list (CSV: email, name, consent date, newsletter slug) as readers' newsletter subscriptions",
    kinds: [NEWSLETTER_SUBSCRIPTION_KIND, MEMBER_KIND],
    prepare: async (file) => {
      const firstLine = new Map<string, number>();
      const csv = await indexCsv(file, SPEC, (row) => {
        const email = normaliseEmail(row.values.email);
        const key = `${newsletterOf(row, fallback)}:${email}`;
        if (email && !firstLine.has(key)) firstLine.set(key, row.line);
      });
      const noted = new Set<string>();
      let newsletters: Map<string, Newsletter> | null = null;
      let suppressed = new Set<string>();
      const accountNewsletters = async (db: Db, ctx: ImportContext) => {
        newsletters ??= new Map(
          (
            await db.newsletter.findMany({
              where: { accountId: ctx.accountId },
              select: { id: true, slug: true, archivedAt: true },
            })
          ).map((n) => [n.slug, { id: n.id, slug: n.slug, archived: n.archivedAt !== null }]),
        );
        return newsletters;
      };
      return {
        digest: csv.digest,
        itemCount: csv.rows,
        problems: csv.problems,
        items: () => rowItems(file, fallback),
        prefetch: async (db, items, ctx) => {
          const emails = items.flatMap((i) => (i.email ? [i.email] : []));
          await ctx.preload(
            db,
            MEMBER_KIND,
            emails.map((e) => `email:${e}`),
          );
          suppressed = await suppressedAmong(db, { accountId: ctx.accountId, emails });
        },
        plan: async (db, item, ctx) =>
          planRow(db, item, ctx, {
            firstLine,
            noted,
            newsletters: await accountNewsletters(db, ctx),
            suppressed: (email) => suppressed.has(email),
          }),
      };
    },
  };
}

/** The row's newsletter slug, lower-cased; the default's when it has none ("" when neither). */
function newsletterOf(row: CsvRow, fallback: string): string {
  return row.values.newsletter?.trim().toLowerCase() || fallback;
}

async function* rowItems(file: ImportFile, fallback: string): AsyncGenerator<RowItem> {
  for await (const row of readCsv(file, SPEC)) {
    const email = normaliseEmail(row.values.email);
    const newsletter = newsletterOf(row, fallback);
    yield {
      kind: NEWSLETTER_SUBSCRIPTION_KIND,
      sourceId: email ? `${newsletter}:${email}` : `line:${row.line}`,
      label: `line ${row.line} (${row.values.email?.trim() || "no e-mail"}${newsletter ? `, ${newsletter}` : ""})`,
      row,
      email,
      newsletter,
    };
  }
}

const refuse = (reason: string): ItemPlan => ({ action: "refuse", reason });
const skip = (reason: string): ItemPlan => ({ action: "skip", reason });

/** The newsletter a row names, or why it cannot be told. */
function resolveNewsletter(slug: string, newsletters: Map<string, Newsletter>): Newsletter | string {
  const active = [...newsletters.values()].filter((n) => !n.archived);
  if (!slug) {
    if (active.length === 1) return active[0]!;
    return `it names no newsletter and the account has ${active.length === 0 ? "none" : `${active.length}`}: add a "newsletter" column with a slug (${active
      .map((n) => n.slug)
      .slice(0, 10)
      .join(", ")}), or have whoever runs the server import it with a default newsletter`;
  }
  const found = newsletters.get(slug);
  if (!found) {
    return `unknown newsletter "${slug}" (the account's: ${active
      .map((n) => n.slug)
      .slice(0, 10)
      .join(", ")})`;
  }
  if (found.archived) return `the newsletter "${slug}" is archived`;
  return found;
}

function noteOnce(ctx: ImportContext, noted: Set<string>, key: string, message: string) {
  if (noted.has(key)) return;
  noted.add(key);
  ctx.note(message);
}

async function planRow(
  db: Db,
  item: RowItem,
  ctx: ImportContext,
  run: {
    firstLine: Map<string, number>;
    noted: Set<string>;
    newsletters: Map<string, Newsletter>;
    suppressed: (email: string) => boolean;
  },
): Promise<ItemPlan> {
  const { row, email } = item;
  const v = row.values;
  if (row.error) return refuse(row.error);
  if (!email) return refuse(v.email?.trim() ? `bad e-mail: "${v.email.trim()}" is not an address` : "it has no e-mail");
  const first = run.firstLine.get(`${item.newsletter}:${email}`);
  if (first !== undefined && first !== row.line) {
    return refuse(`duplicate row: line ${first} has ${email} for this newsletter too; only line ${first} is imported`);
  }
  const newsletter = resolveNewsletter(item.newsletter, run.newsletters);
  if (typeof newsletter === "string") return refuse(newsletter);
  const status = (v.status ?? "").trim().toLowerCase();
  if (NOT_SUBSCRIBED.has(status)) return skip(`its status is "${status}" in the old system: not subscribed`);
  if (!SUBSCRIBED.has(status)) {
    return refuse(`its status "${v.status?.trim()}" is not one of subscribed, unsubscribed, pending, cleaned`);
  }
  const consent = parseConsentDate(consentText(row));
  if (consent === null) {
    return refuse("it has no consent date: a subscription says when the reader agreed (give the old system's date)");
  }
  if (!(consent instanceof Date)) return refuse(consent.error);
  if (consent > ctx.now) return refuse(`its consent date ${consent.toISOString()} is in the future`);

  const sourceId = `${newsletter.slug}:${email}`;
  const known = await ctx.lookup(db, { kind: NEWSLETTER_SUBSCRIPTION_KIND, sourceId });
  if (known !== null) return skip(`imported before (subscription #${known})`);
  if (run.suppressed(email)) return skip(`suppressed address: ${email} bounced or complained, and is not mailed`);

  if (v.source?.trim()) {
    noteOnce(
      ctx,
      run.noted,
      "source",
      `the "source" column is not kept: every imported subscription's consent source is ${NEWSLETTER_CSV_CONSENT_SOURCE} (first: line ${row.line})`,
    );
  }
  noteSpelling(ctx, v.email ?? null, email, run.noted);
  const name = graphemePrefix(v.name?.trim() ?? "", 200) || email.split("@")[0]!;
  const member = await planMember(db, ctx, { email, identities: [], name, source: NEWSLETTER_CSV_SOURCE });
  if (member.exists) {
    const existing = await db.newsletterSubscription.findFirst({
      where: { newsletterId: newsletter.id, member: { accountId: ctx.accountId, email } },
      select: { status: true, consentedAt: true, unsubscribedAt: true },
    });
    if (existing?.status === "ACTIVE") {
      return skip(`already subscribed to ${newsletter.slug} since ${existing.consentedAt.toISOString()}`);
    }
    if (existing?.status === "PENDING") return skip(`waiting for their confirmation of ${newsletter.slug} in Masthead`);
    if (existing?.status === "UNSUBSCRIBED") {
      return skip(
        `left ${newsletter.slug} in Masthead${existing.unsubscribedAt ? ` on ${existing.unsubscribedAt.toISOString()}` : ""}: not subscribed again`,
      );
    }
  }
  const effects: PlanEffect[] = member.exists
    ? [{ kind: MEMBER_KIND, action: "update", label: `${member.label}: matched by e-mail` }]
    : member.effects;
  return {
    action: "create",
    reason: `${member.exists ? "existing member" : "new member"} ${member.label} to ${newsletter.slug}, consent ${consent.toISOString()}`,
    effects,
    remember: [...member.remember, { kind: NEWSLETTER_SUBSCRIPTION_KIND, sourceId }],
    apply: async (tx) => {
      const memberId = await member.resolve(tx);
      const created = await tx.newsletterSubscription.createMany({
        data: [
          {
            accountId: ctx.accountId,
            newsletterId: newsletter.id,
            memberId,
            status: "ACTIVE",
            consentedAt: consent,
            consentSource: NEWSLETTER_CSV_CONSENT_SOURCE,
          },
        ],
        skipDuplicates: true,
      });
      const subscription = await tx.newsletterSubscription.findUniqueOrThrow({
        where: { newsletterId_memberId: { newsletterId: newsletter.id, memberId } },
        select: { id: true },
      });
      if (created.count === 1) {
        await recordConsent(tx, {
          accountId: ctx.accountId,
          memberId,
          purpose: newsletterPurpose(newsletter.id),
          given: true,
          channel: "import",
          now: consent,
        });
      }
      await ctx.record(tx, {
        kind: NEWSLETTER_SUBSCRIPTION_KIND,
        sourceId,
        targetId: subscription.id,
        created: created.count === 1,
      });
    },
  };
}
