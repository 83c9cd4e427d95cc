/**
 * Who wrote an imported comment: ONE member per reader of the account, the same record their
 * comments, newsletters and subscriptions reach (server/members, "one person, one record").
 *
 * - An author **with an account** in the source system (a Disqus user; a registered WordPress
 *   user, comment_user_id ≠ 0), or **known by an e-mail** (a WordPress visitor who gave one), is a
 *   member, found:
 *   1. by e-mail: the member whose sign-in e-mail it is (members.email, compared as Masthead keeps
 *      e-mails: trimmed and lower-cased, so "Ada@Example.com " and "ada@example.com" are one
 *      reader); then
 *   2. by identity: the member holding (provider "disqus" or "wordpress", the username or user id)
 *      in member_identities; else
 *   3. created: named as the source names them, the e-mail as sign-in e-mail (unverified, no
 *      password: the reader takes the account over by resetting its password, which proves the
 *      address), or a reserved placeholder without one; source "disqus" or "wordpress".
 *   The member is given the source identity when nobody holds it, so later files find them.
 * - A **staff person** of the old site (a WordPress user the export lists as a <wp:author>) is the
 *   member of the staff person's own e-mail (the <wp:author>'s, not what the comment form held),
 *   named as the export names them, with the identity "wordpress:<user id>": the member a
 *   commenter with that e-mail and the story author with it are too (one person, one record). The
 *   report says so once per person, naming the dashboard user of that e-mail when there is one.
 * - An author **without an account or e-mail** (a Disqus guest, `isAnonymous`; a WordPress
 *   visitor who gave none) is a guest, as Masthead's own guests are
 *   (server/engagement/guests.ts): the comment is written by the account's one guest member, says
 *   `guest`, and keeps the name given as `guest_name`. A Disqus guest's e-mail is not kept: Disqus
 *   says they had no account there.
 * - An author **all of whose comments in the file are spam** (index-pass.ts) does not become a
 *   member either: the comments are kept as spam (a moderator sees them, the spam filter learns
 *   from them) and written by the guest member under the name given; the address is not kept.
 * Each author's member is recorded once (import_records kind "member", by "email:…",
 * "<provider>:…" or "guest"), so the rest of the file finds it without asking again.
 *
 * `planMember` is that find-or-create for every import source (the readers and subscriptions
 * CSVs too, server/imports/readers); it creates through server/members' createIdentityMember.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { GUEST_DEFAULT_NAME, guestMember } from "../../engagement/guests";
import { createIdentityMember, cut, GUEST_PROVIDER, placeholderEmail } from "../../members/identities";
import type { ImportContext, Mapping, PlanEffect } from "../types";
import { authorKey, guestNameOf, normaliseEmail, type CommentAuthor, type StaffPerson } from "./records";

export const MEMBER_KIND = "member";

type AuthorPlan = Omit<MemberPlan, "exists"> & {
  guest: boolean;
  guestName: string | null;
};

/** Spellings of e-mails already noted (a note per spelling, not per comment); bounded. */
const NOTED_LIMIT = 10_000;

/** What a file's plans share: spellings and people noted once, the authors whose every post is spam. */
export type AuthorFile = { noted: Set<string>; spamOnly: ReadonlySet<string> };

/** The plan for `author` (see the file's comment). */
export async function planAuthor(
  db: Db,
  ctx: ImportContext,
  provider: string,
  author: CommentAuthor,
  { noted, spamOnly }: AuthorFile,
): Promise<AuthorPlan> {
  const key = authorKey(provider, author);
  if (key === null || spamOnly.has(key)) return planGuest(db, ctx, author);
  const { staff } = author;
  const spelled = normaliseEmail(staff?.email) ? staff!.email : author.email;
  const email = normaliseEmail(spelled);
  const account = author.accountId?.trim() || null;
  noteSpelling(ctx, spelled, email, noted);
  const name = cut(staff?.name ?? author.name, 200) ?? staff?.login ?? account ?? "Reader";
  const member = await planMember(db, ctx, {
    email,
    identities: account ? [{ provider, externalId: account }] : [],
    name,
    source: provider,
  });
  if (!staff) return { guest: false, guestName: null, ...member };
  await noteStaff(db, ctx, { staff, account, email, noted });
  return { guest: false, guestName: null, ...member, label: `staff ${staff.login}, ${member.label}` };
}

/** Say once per staff person whose member their comments go to, and the dashboard user of that e-mail. */
async function noteStaff(
  db: Db,
  ctx: ImportContext,
  args: { staff: StaffPerson; account: string | null; email: string | null; noted: Set<string> },
) {
  const { staff, account, email, noted } = args;
  const once = `staff:${staff.login}`;
  if (noted.has(once) || noted.size >= NOTED_LIMIT) return;
  noted.add(once);
  const admin = email
    ? await db.adminUser.findFirst({ where: { accountId: ctx.accountId, email }, select: { name: true } })
    : null;
  ctx.note(
    `WordPress user ${staff.login}${account ? ` (#${account})` : ""} is the site's staff: their comments are the member ${email ?? `wordpress:${account ?? "?"}`}'s${admin ? `, the e-mail of dashboard user ${admin.name}` : ""}, not a reader account of their own`,
  );
}

/** Note once per spelling that an e-mail written otherwise is read as `email` (bounded). */
export function noteSpelling(ctx: ImportContext, spelled: string | null, email: string | null, noted: Set<string>) {
  const written = spelled?.trim() ?? "";
  if (email && written !== email && !noted.has(written) && noted.size < NOTED_LIMIT) {
    noted.add(written);
    ctx.note(`e-mail "${written}" is read as ${email}: one reader whatever the spelling`);
  }
}

/** An outside identity of a reader in the source system ("disqus", "bobby"; "ghost", "5f…"; "stripe", "cus_…"). */
export type SourceIdentity = { provider: string; externalId: string };

/** A reader of a file, to be found or created as a member. */
type WantedMember = {
  /** Normalised (normaliseEmail), or null. */
  email: string | null;
  /** The reader's identities in the systems the file comes from; the first names a member without e-mail. */
  identities: SourceIdentity[];
  /** The name a created member gets. */
  name: string;
  /** members.source of a created member. */
  source: string;
  /** A created member's created_at (default: the run's time). */
  createdAt?: Date | null;
};

type MemberPlan = {
  /** Who, for the report ("Ada <ada@example.com>"). */
  label: string;
  effects: PlanEffect[];
  remember: Mapping[];
  /** Whether the member is there already (found or recorded before), rather than created by this plan. */
  exists: boolean;
  /** The member, created or linked as planned, in the item's transaction. */
  resolve: (tx: TransactionClient) => Promise<number>;
};

/** The import records naming a reader: "email:<e-mail>", "<provider>:<id>". */
function memberKeys(wanted: Pick<WantedMember, "email" | "identities">): Mapping[] {
  return [
    ...(wanted.email ? [{ kind: MEMBER_KIND, sourceId: `email:${wanted.email}` }] : []),
    ...wanted.identities.map((i) => ({ kind: MEMBER_KIND, sourceId: `${i.provider}:${i.externalId}` })),
  ];
}

/**
 * **The one find-or-create of an imported reader** (comment authors, Ghost members, subscribers;
 * "one person, one record"): the member recorded under one of its keys by an earlier item or run;
 * else the member whose sign-in e-mail it is (members.email, compared as Masthead keeps it); else
 * the member holding one of its identities; else a new one (createIdentityMember: unverified, no
 * password). The member is given every identity nobody holds, so later files find it; an identity
 * held by another member stays with it (noted). Each key is recorded once.
 */
export async function planMember(db: Db, ctx: ImportContext, wanted: WantedMember): Promise<MemberPlan> {
  const { email, identities, name } = wanted;
  const keys = memberKeys(wanted);
  const first = identities[0];
  const label = email ? `${name} <${email}>` : `${name} (${first ? `${first.provider}:${first.externalId}` : "?"})`;
  // Known by a key already (an earlier item or run): its identities not recorded yet are linked
  // if nobody holds them (a visitor's e-mail first, the same person's account later in the file).
  let recorded: string | null = null;
  const unrecorded: SourceIdentity[] = [];
  for (const identity of identities) {
    if ((await ctx.lookup(db, { kind: MEMBER_KIND, sourceId: `${identity.provider}:${identity.externalId}` })) === null)
      unrecorded.push(identity);
  }
  for (const key of keys) recorded ??= await ctx.lookup(db, key);
  const byEmail =
    recorded === null && email
      ? await db.member.findUnique({
          where: { accountId_email: { accountId: ctx.accountId, email } },
          select: { id: true },
        })
      : null;
  const candidates = recorded === null ? identities : unrecorded;
  const holders: (number | null)[] = [];
  for (const identity of candidates) {
    const row = await db.memberIdentity.findUnique({
      where: { accountId_provider_externalId: { accountId: ctx.accountId, ...identity } },
      select: { memberId: true },
    });
    holders.push(row?.memberId ?? null);
  }
  const found = byEmail?.id ?? holders.find((h) => h !== null) ?? null;
  const existing: number | string | null = recorded ?? found;
  candidates.forEach((identity, i) => {
    const holder = holders[i];
    if (existing !== null && holder != null && String(holder) !== String(existing)) {
      ctx.note(
        `${identity.provider}:${identity.externalId} is member #${holder}'s, ${email ?? "this reader"} member #${existing}'s: what the file says of them goes to #${existing}${byEmail ? " (by e-mail)" : ""}`,
      );
    }
  });
  const link = candidates.filter((_, i) => holders[i] === null);
  const effects: PlanEffect[] =
    existing === null
      ? [{ kind: MEMBER_KIND, action: "create", label }]
      : link.length > 0
        ? [
            {
              kind: MEMBER_KIND,
              action: "update",
              label: `member #${existing}: linked to ${link.map((l) => `${l.provider}:${l.externalId}`).join(", ")}`,
            },
          ]
        : [];
  return {
    label,
    effects,
    remember: keys,
    exists: existing !== null,
    resolve: async (tx) => {
      let memberId = existing === null ? null : Number(existing);
      let linked = link;
      if (memberId === null) {
        const key = email ? { accountId: ctx.accountId, email } : { accountId: ctx.accountId, ...link[0]! };
        const member = await createIdentityMember(tx, {
          key,
          create: {
            name,
            email: email ?? placeholderEmail(first!.provider),
            source: wanted.source,
            createdAt: wanted.createdAt ?? ctx.now,
          },
          identityEmail: email,
          now: ctx.now,
        });
        memberId = member.id;
        if (!email) linked = link.slice(1);
      }
      for (const identity of linked) {
        await tx.memberIdentity.create({
          data: { accountId: ctx.accountId, ...identity, memberId, email, createdAt: ctx.now },
        });
      }
      for (const key of keys) await recordIfNew(tx, ctx, key, memberId, existing === null);
      return memberId;
    },
  };
}

async function planGuest(db: Db, ctx: ImportContext, author: CommentAuthor): Promise<AuthorPlan> {
  const guestName = guestNameOf(author.name);
  const label = `guest ${guestName ?? GUEST_DEFAULT_NAME}`;
  const key = { kind: MEMBER_KIND, sourceId: GUEST_PROVIDER };
  const known = await ctx.lookup(db, key);
  const base = { guest: true, guestName, label, remember: [key] };
  if (known !== null) return { ...base, effects: [], resolve: async () => Number(known) };
  const existing = await db.memberIdentity.findUnique({
    where: {
      accountId_provider_externalId: { accountId: ctx.accountId, provider: GUEST_PROVIDER, externalId: GUEST_PROVIDER },
    },
    select: { memberId: true },
  });
  return {
    ...base,
    effects: existing ? [] : [{ kind: MEMBER_KIND, action: "create", label: "the account's guest member" }],
    resolve: async (tx) => {
      const member = existing
        ? { id: existing.memberId }
        : await guestMember(tx, { accountId: ctx.accountId, now: ctx.now });
      await recordIfNew(tx, ctx, key, member.id, !existing);
      return member.id;
    },
  };
}

/** Record `key` → member unless this run or an earlier one did. */
async function recordIfNew(
  tx: TransactionClient,
  ctx: ImportContext,
  key: Mapping,
  memberId: number,
  created: boolean,
) {
  if ((await ctx.lookup(tx, key)) !== null) return;
  await ctx.record(tx, { ...key, targetId: memberId, created });
}
