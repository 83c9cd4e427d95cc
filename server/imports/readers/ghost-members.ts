/**
 * Ghost's members CSV export as an import source (`--from ghost-members`, docs/migration.md "Ghost
 * members"). Columns: id, email, name, note, subscribed_to_emails, complimentary_plan,
 * stripe_customer_id, created_at, deleted_at, labels, tiers (only `email` is required; others
 * are ignored and said once).
 *
 * Each row is one reader, one member of the account (comments/authors.ts planMember): the member
 * recorded for its Ghost id or e-mail before; else the member with its e-mail as Masthead keeps
 * e-mails (a commenter imported from Disqus, a reader who signed up); else the member holding the
 * identity `ghost:<id>`; else a new one: unverified, no password (the reader takes it over by
 * resetting the password, which proves the address), named and dated as in Ghost, source "ghost".
 * - `ghost:<id>` and, for a paying member, `stripe:<stripe_customer_id>` (the gateway's customer)
 *   become identities of the member, so the subscriptions CSV and later files find it by either.
 * - `subscribed_to_emails` true becomes the member's consent to the list "newsletter"
 *   (member_consents, source "import:ghost", at the import's time: Ghost's export does not say
 *   when it was given); false records nothing.
 * - Complimentary members (`complimentary_plan` true, or `status` comped) get a complimentary
 *   subscription on the plan their tier maps to (ghost-comps.ts; `--plans`, the subscriptions
 *   import's mapping file, or the plan titled as the tier). Paid members: the report says once to
 *   import their gateway subscriptions (`--from subscriptions`).
 * - Not imported, said once in the report: labels and the staff note (Masthead has no place for
 *   them). A member Masthead has already keeps its name; a row with `deleted_at` is skipped.
 * - Refused, one line each: a row without a usable e-mail, an e-mail or Ghost id that an earlier
 *   row of the file has (two spellings of one e-mail are one reader), a bad date or boolean, a row
 *   cut off.
 */
import "server-only";

import { formatInstant } from "../../dates.schema";
import type { Db } from "../../db/client";
import { recordConsent } from "../../privacy/consent/consent";
import { graphemePrefix } from "../../text/graphemes";
import { MEMBER_KIND, noteSpelling, planMember } from "../comments/authors";
import type { ImportContext, ImportFile, ImportItem, ImportSource, ItemPlan, PlanEffect } from "../types";
import { indexCsv, readCsv, type CsvRow, type CsvSpec } from "./csv";
import { COMP_KIND, compResolver, compTierOf, ghostStatusOf, planComp, tierOf } from "./ghost-comps";
import { ghostStripeLinker } from "./ghost-stripe";
import { loadPlanMapping, type PlanMappingOption, type PlanResolver } from "./plans";
import { normaliseEmail, parseCsvBoolean, parseCsvDate } from "./values";

export const GHOST_MEMBERS_SOURCE = "ghost-members";
const CONSENT_KIND = "consent";
/** The list a Ghost site's `subscribed_to_emails` consents to. */
export const NEWSLETTER_LIST = "newsletter";
export const GHOST_CONSENT_SOURCE = "import:ghost";

const SPEC: CsvSpec = {
  title: "A Ghost members export",
  required: ["email"],
  known: [
    "id",
    "email",
    "name",
    "note",
    "subscribed_to_emails",
    "complimentary_plan",
    "stripe_customer_id",
    "created_at",
    "deleted_at",
    "labels",
    "tiers",
    "products",
    "status",
  ],
};

type MemberItem = ImportItem & { row: CsvRow; email: string | null; ghostId: string | null };

/** At most this many distinct tiers are listed (a column that is not tiers would have thousands). */
const MAX_TIERS_LISTED = 500;

/** The first line of each e-mail and Ghost id of the file (a later row repeating one is refused). */
type MembersIndex = { emails: Map<string, number>; ids: Map<string, number> };

/** The source, with the plan mapping its complimentary members' tiers go through (--plans). */
export function ghostMembersSourceWith(
  options: {
    plans?: PlanMappingOption;
    /** Told, once the file is read, the tiers of its complimentary members with their row counts (what the mapping maps). */
    onPlans?: (tiers: Map<string, number>) => void;
  } = {},
): ImportSource<MemberItem> {
  return {
    name: GHOST_MEMBERS_SOURCE,
    description: "the members of a Ghost site, from its members CSV export",
    kinds: [MEMBER_KIND, CONSENT_KIND, COMP_KIND],
    prepare: async (file) => {
      const given = await loadPlanMapping(options.plans);
      const resolver = compResolver(given?.mapping ?? null, given?.name ?? null);
      const index: MembersIndex = { emails: new Map(), ids: new Map() };
      const tiers = new Map<string, number>();
      const csv = await indexCsv(file, SPEC, (row) => {
        const email = normaliseEmail(row.values.email);
        const id = row.values.id?.trim();
        if (email && !index.emails.has(email)) index.emails.set(email, row.line);
        if (id && !index.ids.has(id)) index.ids.set(id, row.line);
        const tier = compTierOf(row.values);
        if (tier !== null && (tiers.has(tier) || tiers.size < MAX_TIERS_LISTED))
          tiers.set(tier, (tiers.get(tier) ?? 0) + 1);
      });
      options.onPlans?.(tiers);
      const noted = new Set<string>();
      const stripe = ghostStripeLinker(resolver, noted);
      return {
        digest: csv.digest,
        itemCount: csv.rows,
        problems: csv.problems,
        items: () => memberItems(file),
        prefetch: async (db, items, ctx) => {
          const keys = items.flatMap((i) => [
            ...(i.email ? [`email:${i.email}`] : []),
            ...(i.ghostId ? [`ghost:${i.ghostId}`] : []),
          ]);
          await ctx.preload(db, MEMBER_KIND, keys);
        },
        plan: (db, item, ctx) => planRow(db, item, ctx, { index, noted, resolver, stripe }),
      };
    },
  };
}

export const ghostMembersSource = ghostMembersSourceWith();

async function* memberItems(file: ImportFile): AsyncGenerator<MemberItem> {
  for await (const row of readCsv(file, SPEC)) {
    const email = normaliseEmail(row.values.email);
    const ghostId = row.values.id?.trim() || null;
    yield {
      kind: MEMBER_KIND,
      sourceId: ghostId ? `ghost:${ghostId}` : email ? `email:${email}` : `line:${row.line}`,
      label: `line ${row.line} (${row.values.email?.trim() || "no e-mail"})`,
      row,
      email,
      ghostId,
    };
  }
}

const refuse = (reason: string): ItemPlan => ({ action: "refuse", reason });

/** Say once per run what a kind of column's values do not become. */
function noteOnce(ctx: ImportContext, noted: Set<string>, what: string, message: string) {
  if (noted.has(`dropped:${what}`)) return;
  noted.add(`dropped:${what}`);
  ctx.note(message);
}

/** What of the row Masthead does not keep, said once per kind of value. */
function noteDropped(ctx: ImportContext, noted: Set<string>, row: CsvRow, paid: boolean) {
  const v = row.values;
  const at = `(first: line ${row.line})`;
  if (v.labels?.trim()) {
    noteOnce(ctx, noted, "labels", `labels are not imported: Masthead has no labels for readers ${at}`);
  }
  if (v.note?.trim())
    noteOnce(ctx, noted, "note", `staff notes are not imported: Masthead has no place for them ${at}`);
  if (paid) {
    noteOnce(
      ctx,
      noted,
      "paid",
      `paid members' access comes from their gateway subscriptions, not from this file: import Stripe's subscriptions export with --from subscriptions --plans MAPPING.json (docs/migration.md "Subscriptions CSV"); until then they read as free members ${at}`,
    );
  }
}

type RowContext = {
  index: MembersIndex;
  noted: Set<string>;
  resolver: PlanResolver;
  stripe: ReturnType<typeof ghostStripeLinker>;
};

async function planRow(
  db: Db,
  item: MemberItem,
  ctx: ImportContext,
  { index, noted, resolver, stripe }: RowContext,
): Promise<ItemPlan> {
  const { row, email, ghostId } = item;
  const v = row.values;
  if (row.error) return refuse(row.error);
  if (!email) return refuse(v.email?.trim() ? `its e-mail "${v.email.trim()}" is not an address` : "it has no e-mail");
  const firstOfEmail = index.emails.get(email);
  if (firstOfEmail !== undefined && firstOfEmail !== row.line) {
    return refuse(
      `its e-mail ${email} is line ${firstOfEmail}'s too (one reader, one row): only line ${firstOfEmail} is imported`,
    );
  }
  const firstOfId = ghostId ? index.ids.get(ghostId) : undefined;
  if (firstOfId !== undefined && firstOfId !== row.line) {
    return refuse(`its id ${ghostId} is line ${firstOfId}'s too: only line ${firstOfId} is imported`);
  }
  const known = await ctx.lookup(db, { kind: MEMBER_KIND, sourceId: item.sourceId });
  if (known !== null) return { action: "skip", reason: `imported before (member #${known})` };
  const deleted = parseCsvDate(v.deleted_at);
  if (deleted === "invalid") return refuse(`its deleted_at "${v.deleted_at}" is not a date`);
  if (deleted)
    return { action: "skip", reason: `deleted in Ghost on ${formatInstant(deleted, ctx.publisher.timeZone)}` };
  const createdAt = parseCsvDate(v.created_at);
  if (createdAt === "invalid") return refuse(`its created_at "${v.created_at}" is not a date`);
  const subscribed = parseCsvBoolean(v.subscribed_to_emails);
  if (subscribed === "invalid")
    return refuse(`its subscribed_to_emails "${v.subscribed_to_emails}" is not true or false`);
  const complimentary = parseCsvBoolean(v.complimentary_plan);
  if (complimentary === "invalid")
    return refuse(`its complimentary_plan "${v.complimentary_plan}" is not true or false`);
  const customer = v.stripe_customer_id?.trim() || null;

  noteSpelling(ctx, v.email ?? null, email, noted);
  const standing = ghostStatusOf(v, complimentary === true);
  // A paid member's Stripe subscriptions come from Stripe when the account has its keys.
  const fromStripe = standing === "paid" && customer !== null && (await stripe.linking(db, ctx));
  noteDropped(ctx, noted, row, standing === "paid" && !fromStripe);
  const link = fromStripe ? await stripe.link(db, ctx, { customer, tier: tierOf(v), label: item.label }) : null;
  if (link && "refuse" in link) return refuse(link.refuse);
  const name = graphemePrefix(v.name?.trim() ?? "", 200) || email.split("@")[0]!;
  const member = await planMember(db, ctx, {
    email,
    identities: [
      ...(ghostId ? [{ provider: "ghost", externalId: ghostId }] : []),
      ...(customer ? [{ provider: "stripe", externalId: customer }] : []),
    ],
    name,
    source: "ghost",
    createdAt,
  });
  const consent = subscribed === true && !(await hasConsent(db, ctx, member.exists ? email : null));
  const planned =
    standing === "comped"
      ? await planComp(db, ctx, { v, sourceId: item.sourceId, createdAt, resolver, label: item.label })
      : null;
  if (planned && "note" in planned) ctx.note(planned.note);
  const comp = planned && !("note" in planned) ? planned : null;
  const effects: PlanEffect[] = [
    ...(consent ? [{ kind: CONSENT_KIND, action: "create" as const, label: `${email}: ${NEWSLETTER_LIST}` }] : []),
    ...(comp ? [comp.effect] : []),
    ...(link?.effects ?? []),
  ];
  const linked = link?.effects.map((e) => e.label).join("; ") ?? "";
  const what = [
    createdAt ? `joined ${formatInstant(createdAt, ctx.publisher.timeZone)}` : null,
    consent ? "newsletter consent" : subscribed === true ? "newsletter consent kept" : "no newsletter consent",
    customer ? `stripe customer ${customer}` : null,
    comp ? comp.effect.label : null,
    linked || null,
  ]
    .filter(Boolean)
    .join(", ");
  const linking = member.effects.find((e) => e.action === "update");
  const action = !member.exists ? "create" : linking || consent || comp || linked ? "update" : "skip";
  const reason = !member.exists
    ? `member ${member.label}: ${what}`
    : `${linking ? linking.label : `member ${member.label} is there already`}${consent ? "; newsletter consent" : ""}${comp ? `; ${comp.effect.label}` : ""}${linked ? `; ${linked}` : ""}`;
  return {
    action,
    reason,
    effects,
    remember: [...member.remember, ...(comp ? [comp.key] : []), ...(link?.keys ?? [])],
    apply: async (tx) => {
      const memberId = await member.resolve(tx);
      await comp?.apply(tx, memberId);
      await link?.apply(tx, memberId);
      if (!consent) return;
      const created = await tx.memberConsent.createManyAndReturn({
        data: [
          {
            accountId: ctx.accountId,
            memberId,
            list: NEWSLETTER_LIST,
            consentedAt: ctx.now,
            source: GHOST_CONSENT_SOURCE,
          },
        ],
        skipDuplicates: true,
        select: { id: true },
      });
      // The imported consent as a consent record too (server/privacy/consent), related to its row.
      for (const row of created) {
        await recordConsent(tx, {
          accountId: ctx.accountId,
          memberId,
          purpose: `list:${NEWSLETTER_LIST}`,
          given: true,
          channel: "import",
          memberConsentId: row.id,
          now: ctx.now,
        });
      }
    },
  };
}

/** Whether the member with `email` (null: a member this run creates) consented to the newsletter already. */
async function hasConsent(db: Db, ctx: ImportContext, email: string | null): Promise<boolean> {
  if (!email) return false;
  const row = await db.memberConsent.findFirst({
    where: { accountId: ctx.accountId, list: NEWSLETTER_LIST, member: { email } },
    select: { id: true },
  });
  return row !== null;
}
