/**
 * The moderator's day through tRPC: the decided views (approved, rejected, marked spam, newest
 * decision first, with who decided), changing a decision from them (one transaction: audit entry
 * with the actor, the webhook event, counts; a stale change refused), undo, and every filter of the
 * lists (text, page, reader, reason, dates) with its validation.
 */
import { describe, expect, it } from "vitest";

import type { ApiUser } from "../../auth/api-auth";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { createComment, pageCommentCounts } from "../../engagement/comments";
import { pageId } from "../../testing/engagement";
import { createModerationDesk, createTestStaff, trpcCodeOf } from "../../testing/staff";

const URL_A = "https://news.example.com/politics/a-story";
const URL_B = "https://news.example.com/sport/the-final";

const reader = (id: string, name = id, email: string | null = null): ApiUser => ({
  id,
  name,
  email,
  avatarUrl: null,
  provider: null,
});
const ADA = reader("ada", "Ada Lovelace", "ada@example.com");
const BO = reader("bo", "Bo Diddley");

async function setup() {
  return createModerationDesk(await getDb());
}

async function post(db: Db, accountId: number, user: ApiUser, text: string, opts: { url?: string; now?: Date } = {}) {
  const { response } = await createComment(db, {
    account: { id: accountId, slug: "x", name: "x" },
    user,
    encodedUrl: pageId(opts.url ?? URL_A),
    input: { comment: { body: { ops: [{ insert: text }] } } },
    now: opts.now ?? new Date(),
  });
  return response.comment;
}

const visibleCount = async (db: Db, accountId: number) =>
  (await pageCommentCounts(db, { accountId, pageIds: [pageId(URL_A)] }))[0]!.comments_count;

const events = (db: Db, name: string) => db.webhookEvent.count({ where: { name } });

describe("decided views", () => {
  it("list approved, rejected and marked-spam comments, newest decision first, with who decided", async () => {
    const { db, account, moderator, owner } = await setup();
    const a = await post(db, account.id, ADA, "you idiot");
    const b = await post(db, account.id, BO, "you moron");
    const c = await post(db, account.id, reader("cy"), "you clown, you idiot");
    const d = await post(db, account.id, reader("di"), "you twit");

    await moderator.caller.moderation.act({ commentId: a.id, action: "reject" });
    await owner.caller.moderation.act({ commentId: b.id, action: "reject" });
    await moderator.caller.moderation.act({ commentId: c.id, action: "approve" });
    await moderator.caller.moderation.act({ commentId: d.id, action: "spam" });

    const rejected = await moderator.caller.moderation.queue({ tab: "rejected" });
    expect(rejected.items.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(rejected.items[0]!.decidedBy).toEqual({ id: owner.user.id, name: "Olive" });
    expect(rejected.items[1]!.decidedBy).toEqual({ id: moderator.user.id, name: "Mo" });
    expect(rejected.items[0]!.decidedAt).toBeInstanceOf(Date);
    expect((await moderator.caller.moderation.queue({ tab: "approved" })).items.map((i) => i.id)).toEqual([c.id]);
    expect((await moderator.caller.moderation.queue({ tab: "marked_spam" })).items.map((i) => i.id)).toEqual([d.id]);
    expect(await moderator.caller.moderation.counts()).toEqual({
      pending: 0,
      reported: 0,
      spam: 0,
      toxic: 0,
      approved: 1,
      rejected: 2,
      marked_spam: 1,
      published: 1,
      featured: 0,
    });

    // Paged by a cursor on the decision time; oldest first reverses.
    const first = await moderator.caller.moderation.queue({ tab: "rejected", limit: 1 });
    const second = await moderator.caller.moderation.queue({ tab: "rejected", limit: 1, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual([b.id, a.id]);
    expect(second.nextCursor).toBeNull();
    const oldest = await moderator.caller.moderation.queue({ tab: "rejected", order: "oldest" });
    expect(oldest.items.map((i) => i.id)).toEqual([a.id, b.id]);
  });

  it("explains the reasons in words and highlights the words that triggered them", async () => {
    const { db, account, moderator } = await setup();
    await moderator.caller.moderation.updateSettings({ bannedWords: [{ word: "gizmo", action: "hold" }] });
    const held = await post(db, account.id, BO, "you idiot, buy a G1ZMO");
    const [item] = (await moderator.caller.moderation.queue({ tab: "pending" })).items;
    expect(item!.id).toBe(held.id);
    const texts = item!.explainedReasons.map((r) => r.text);
    expect(texts).toContain("Held: a banned word");
    expect(texts.find((t) => t.startsWith("Held: toxicity "))).toMatch(/^Held: toxicity [\d.]+ ≥ threshold 70$/);
    const words = item!.highlights.map((h) => "you idiot, buy a G1ZMO\n".slice(h.start, h.end));
    expect(words).toEqual(expect.arrayContaining(["idiot", "G1ZMO"]));
    expect(item!.highlights.find((h) => h.kind === "banned")?.label).toBe("Banned word (holds)");
  });
});

describe("suspect words", () => {
  it("publish the comment and put it in the Reported tab, highlighted, until a moderator decides", async () => {
    const { db, account, moderator } = await setup();
    await moderator.caller.moderation.updateSettings({
      bannedWords: [
        { word: "miracle cure", action: "flag" },
        { word: "gizmo", action: "hold" },
      ],
    });
    const flagged = await post(db, account.id, ADA, "They sell a Miracle-Cure at the market.");
    expect(flagged.is_published).toBe(true);
    expect(await visibleCount(db, account.id)).toBe(1);
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 0, reported: 1 });
    const [item] = (await moderator.caller.moderation.queue({ tab: "reported" })).items;
    expect(item!.id).toBe(flagged.id);
    expect(item!.explainedReasons.map((r) => r.text)).toContain(
      "Flagged: a suspect word (published; waiting for a moderator's look)",
    );
    expect(item!.highlights).toEqual([expect.objectContaining({ kind: "banned", label: "Suspect word (flags)" })]);
    // The reason filter finds it too.
    const byReason = await moderator.caller.moderation.queue({
      tab: "reported",
      filters: { reason: "flagged.suspect_word" },
    });
    expect(byReason.items.map((i) => i.id)).toEqual([flagged.id]);

    // Approving it takes it out of the Reported tab; it stays published.
    await moderator.caller.moderation.act({ commentId: flagged.id, action: "approve" });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ reported: 0, approved: 1 });
    expect(await visibleCount(db, account.id)).toBe(1);

    // A hold word beside a suspect word holds: the stricter action wins.
    const held = await post(db, account.id, BO, "a miracle cure gizmo");
    expect(held.is_published).toBe(false);
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 1, reported: 0 });
  });
});

describe("changing a decision", () => {
  it("approves a rejected comment from the Rejected view: audited with the actor, comment.published, counts", async () => {
    const { db, account, moderator, owner } = await setup();
    await post(db, account.id, ADA, "A fine point.");
    const held = await post(db, account.id, BO, "you idiot");
    await moderator.caller.moderation.act({ commentId: held.id, action: "reject" });
    expect(await visibleCount(db, account.id)).toBe(1);

    const [item] = (await owner.caller.moderation.queue({ tab: "rejected" })).items;
    const changed = await owner.caller.moderation.act({
      commentId: item!.id,
      action: "approve",
      override: true,
      expectedVersion: item!.version,
    });
    expect(changed).toMatchObject({ changed: true, comment: { state: "approved", isPublished: true } });
    expect(changed.comment.decidedBy).toEqual({ id: owner.user.id, name: "Olive" });
    expect(await visibleCount(db, account.id)).toBe(2);
    expect(await events(db, "comment.published")).toBe(1);
    expect(await owner.caller.moderation.counts()).toMatchObject({ rejected: 0, approved: 1, pending: 0 });
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "comment.approve" } });
    expect(entry.actorId).toBe(owner.user.id);
    expect(entry.metadata).toMatchObject({
      from: "rejected",
      to: "approved",
      published: { from: false, to: true },
      override: true,
      changedFromView: true,
    });

    // And back: rejecting the approved comment hides it: comment.unpublished once, counts follow.
    const [approved] = (await owner.caller.moderation.queue({ tab: "approved" })).items;
    await moderator.caller.moderation.act({
      commentId: approved!.id,
      action: "reject",
      override: true,
      expectedVersion: approved!.version,
    });
    expect(await visibleCount(db, account.id)).toBe(1);
    expect(await events(db, "comment.published")).toBe(1);
    expect(await events(db, "comment.unpublished")).toBe(1);
    const unpublished = await db.webhookEvent.findFirstOrThrow({ where: { name: "comment.unpublished" } });
    expect(unpublished.payload).toMatchObject({
      comment: { id: held.id, is_published: false, moderation_state: "rejected" },
      moderator_id: moderator.user.id,
    });
    // Rejecting a comment that was never visible, and marking it spam after, hide nothing: no event.
    const other = await post(db, account.id, reader("cy"), "you moron");
    await moderator.caller.moderation.act({ commentId: other.id, action: "reject" });
    await moderator.caller.moderation.act({ commentId: other.id, action: "spam", override: true });
    expect(await events(db, "comment.unpublished")).toBe(1);
  });

  it("marking a published comment spam unpublishes it; undoing that publishes it again", async () => {
    const { db, account, moderator } = await setup();
    const fine = await post(db, account.id, ADA, "A fair point about the budget, well argued.");
    expect(await visibleCount(db, account.id)).toBe(1);
    const done = await moderator.caller.moderation.act({ commentId: fine.id, action: "spam" });
    expect(await visibleCount(db, account.id)).toBe(0);
    expect(await events(db, "comment.unpublished")).toBe(1);
    await moderator.caller.moderation.undo({ commentId: fine.id, version: done.comment.version });
    expect(await visibleCount(db, account.id)).toBe(1);
    expect(await events(db, "comment.published")).toBe(1);
    expect(await events(db, "comment.unpublished")).toBe(1);
  });

  it("refuses a stale change with CONFLICT and writes nothing", async () => {
    const { db, account, moderator, owner } = await setup();
    const held = await post(db, account.id, BO, "you idiot");
    await moderator.caller.moderation.act({ commentId: held.id, action: "reject" });
    const [seen] = (await owner.caller.moderation.queue({ tab: "rejected" })).items;
    // Meanwhile another moderator approves it.
    await moderator.caller.moderation.act({ commentId: held.id, action: "approve", override: true });
    const audits = await db.auditLog.count();
    const stale = owner.caller.moderation.act({
      commentId: held.id,
      action: "spam",
      override: true,
      expectedVersion: seen!.version,
    });
    await expect(stale).rejects.toThrow(/changed since the list was loaded: it is now approved and published/);
    expect(await trpcCodeOf(stale)).toBe("CONFLICT");
    expect(await db.auditLog.count()).toBe(audits);
    expect(await db.comment.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      moderationState: "APPROVED",
      isSpam: false,
    });
    expect(
      await trpcCodeOf(
        owner.caller.moderation.act({
          commentId: held.id,
          action: "reject",
          override: true,
          expectedVersion: "x".repeat(101),
        }),
      ),
    ).toBe("BAD_REQUEST");
  });
});

describe("moderation.undo", () => {
  it("puts a held comment back in the queue as it was: audited, counts restored; once only", async () => {
    const { db, account, moderator } = await setup();
    const held = await post(db, account.id, BO, "you idiot");
    const done = await moderator.caller.moderation.act({ commentId: held.id, action: "reject" });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 0, rejected: 1 });

    const undone = await moderator.caller.moderation.undo({ commentId: held.id, version: done.comment.version });
    expect(undone.comment).toMatchObject({ state: "undecided", isPublished: false, decidedAt: null, decidedBy: null });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 1, toxic: 1, rejected: 0 });
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "comment.undo" } });
    expect(entry.actorId).toBe(moderator.user.id);
    expect(entry.metadata).toMatchObject({ undoes: "comment.reject", from: "rejected", to: "undecided" });
    expect(
      await trpcCodeOf(moderator.caller.moderation.undo({ commentId: held.id, version: undone.comment.version })),
    ).toBe("CONFLICT");
  });

  it("republishes what a reject unpublished (comment.published); refuses another's decision and a stale one", async () => {
    const { db, account, moderator, owner } = await setup();
    const fine = await post(db, account.id, ADA, "A fine point.");
    const done = await moderator.caller.moderation.act({ commentId: fine.id, action: "reject" });
    expect(await visibleCount(db, account.id)).toBe(0);
    expect(await trpcCodeOf(owner.caller.moderation.undo({ commentId: fine.id, version: done.comment.version }))).toBe(
      "CONFLICT",
    );
    await moderator.caller.moderation.undo({ commentId: fine.id, version: done.comment.version });
    expect(await visibleCount(db, account.id)).toBe(1);
    expect(await events(db, "comment.published")).toBe(1);

    const again = await moderator.caller.moderation.act({ commentId: fine.id, action: "spam" });
    await owner.caller.moderation.act({ commentId: fine.id, action: "approve", override: true });
    expect(
      await trpcCodeOf(moderator.caller.moderation.undo({ commentId: fine.id, version: again.comment.version })),
    ).toBe("CONFLICT");
    const deleted = await owner.caller.moderation.act({ commentId: fine.id, action: "delete" });
    expect(
      await trpcCodeOf(owner.caller.moderation.undo({ commentId: fine.id, version: deleted.comment.version })),
    ).toBe("CONFLICT");
    expect(await trpcCodeOf(owner.caller.moderation.undo({ commentId: fine.id, version: "" }))).toBe("BAD_REQUEST");
  });
});

describe("filters", () => {
  it("by text, page, reader, reason and dates, on queue tabs and decided views", async () => {
    const { db, account, moderator } = await setup();
    const jan = new Date("2026-01-10T12:00:00Z");
    const feb = new Date("2026-02-20T12:00:00Z");
    const a = await post(db, account.id, ADA, "you idiot, the BUDGET is 100% wrong", { now: jan });
    const b = await post(db, account.id, BO, "you moron on the final", { url: URL_B, now: feb });
    const c = await post(db, account.id, reader("cy", "Cy"), "Click here to make money fast, dm me", { now: feb });
    await db.page.updateMany({ where: { accountId: account.id, url: URL_B }, data: { headline: "The Cup Final" } });
    const ids = async (tab: "pending" | "rejected", filters: Record<string, string>) =>
      (await moderator.caller.moderation.queue({ tab, filters })).items.map((i) => i.id).sort((x, y) => x - y);

    expect(await ids("pending", {})).toEqual([a.id, b.id, c.id]);
    expect(await ids("pending", { q: "budget" })).toEqual([a.id]);
    expect(await ids("pending", { q: "100%" })).toEqual([a.id]);
    expect(await ids("pending", { q: "%" })).toEqual([a.id]);
    expect(await ids("pending", { q: "_" })).toEqual([]);
    expect(await ids("pending", { page: "sport/the" })).toEqual([b.id]);
    expect(await ids("pending", { page: "cup final" })).toEqual([b.id]);
    expect(await ids("pending", { reader: "lovelace" })).toEqual([a.id]);
    expect(await ids("pending", { reader: "ADA@EXAMPLE" })).toEqual([a.id]);
    expect(await ids("pending", { reader: String(b.author_id) })).toEqual([b.id]);
    expect(await ids("pending", { reason: "held.spam" })).toEqual([c.id]);
    expect(await ids("pending", { reason: "held.toxicity" })).toEqual([a.id, b.id]);
    expect(await ids("pending", { from: "2026-02-01" })).toEqual([b.id, c.id]);
    expect(await ids("pending", { to: "2026-01-10" })).toEqual([a.id]);
    expect(await ids("pending", { from: "2026-01-11", to: "2026-02-19" })).toEqual([]);
    // The days are the account's: 10 Jan 12:00 UTC is 11 Jan 02:00 in Kiritimati (UTC+14).
    await db.account.update({ where: { id: account.id }, data: { timeZone: "Pacific/Kiritimati" } });
    expect(await ids("pending", { to: "2026-01-10" })).toEqual([]);
    expect(await ids("pending", { from: "2026-01-11", to: "2026-01-11" })).toEqual([a.id]);
    await db.account.update({ where: { id: account.id }, data: { timeZone: "UTC" } });
    expect(await ids("pending", { q: "you", page: "politics" })).toEqual([a.id]);
    // Empty terms are no filter.
    expect(await ids("pending", { q: "  ", reader: "" })).toEqual([a.id, b.id, c.id]);

    // Decided views filter the same way; their dates are the decision's.
    await moderator.caller.moderation.act({ commentId: a.id, action: "reject" });
    await moderator.caller.moderation.act({ commentId: b.id, action: "reject" });
    expect(await ids("rejected", { q: "BUDGET" })).toEqual([a.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids("rejected", { from: today, to: today })).toEqual([a.id, b.id]);
    expect(await ids("rejected", { to: "2026-02-20" })).toEqual(today <= "2026-02-20" ? [a.id, b.id] : []);

    // A client's mistakes are 400s naming the field, never 500s.
    const bad = (filters: Record<string, string>) =>
      trpcCodeOf(moderator.caller.moderation.queue({ tab: "pending", filters }));
    expect(await bad({ q: "x".repeat(201) })).toBe("BAD_REQUEST");
    expect(await bad({ reason: "DROP TABLE" })).toBe("BAD_REQUEST");
    expect(await bad({ from: "2026-02-30" })).toBe("BAD_REQUEST");
    expect(await bad({ from: "yesterday" })).toBe("BAD_REQUEST");
    expect(await bad({ from: "2026-03-01", to: "2026-02-01" })).toBe("BAD_REQUEST");
    expect(await bad({ reader: "a\u0000b" })).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(moderator.caller.moderation.queue({ tab: "nope" as "pending" }))).toBe("BAD_REQUEST");
  });

  it("never finds another account's comments", async () => {
    const { db, account } = await setup();
    await post(db, account.id, ADA, "you idiot about the budget");
    const other = await createTestStaff(db, { roles: ["MODERATOR"] });
    expect((await other.caller.moderation.queue({ tab: "pending", filters: { q: "budget" } })).items).toEqual([]);
    expect((await other.caller.moderation.queue({ tab: "pending", filters: { reader: "ada" } })).items).toEqual([]);
  });
});
