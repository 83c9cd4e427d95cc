/**
 * Scoring that learns (docs/engagement.md "Scoring"):
 * - the scoring settings: kept in memory for comment creates, dropped when the row changes by the
 *   service or by hand, audited with what changed;
 * - the adaptive layer: moderators' decisions move later comments' scores once there are enough;
 *   a changed decision, undo, an edit sending an approved comment back and a deleted comment move
 *   the counts, never counting a comment twice;
 * - the counts go with a deleted reader's decided comments and with a deleted account.
 */
import { describe, expect, it, vi } from "vitest";

import type { Db } from "../../../db/client";
import { PAGE_URL, postComment, reader, scoringSetup, withFixedScorer } from "../../../testing/comment-scoring";
import { pageId } from "../../../testing/engagement";
import { editComment } from "../../comments";
import { scoringSettingsOf } from "./scoring-settings";

const stat = async (db: Db, accountId: number, term: string) =>
  (await db.commentTermStat.findUnique({
    where: { accountId_term: { accountId, term } },
    select: { approved: true, rejected: true, spam: true },
  })) ?? { approved: 0, rejected: 0, spam: 0 };

withFixedScorer();

describe("the scoring settings", () => {
  it("are kept in memory for comment creates and dropped when the row changes, by the service or by hand", async () => {
    const s = await scoringSetup();
    let reads = 0;
    const counted = new Proxy(s.db, {
      get(target, property, receiver) {
        if (property === "commentScoringSettings") reads++;
        return Reflect.get(target, property, receiver) as unknown;
      },
    }) as Db;
    // Read twice, the second from memory. Other test files share the database and its change
    // notices: a moderation change of theirs between the two reads drops the entry too, so the
    // pair is tried again (a cache that never keeps the row reads twice every time).
    let pairReads = 0;
    for (let attempt = 0; attempt < 5 && pairReads !== 1; attempt++) {
      const before = reads;
      expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: false, shadow: null });
      expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: false });
      pairReads = reads - before;
    }
    expect(pairReads).toBe(1);
    const beforeChange = reads;
    await s.moderator.caller.scoring.updateLive({ adaptive: true });
    expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: true });
    expect(reads).toBe(beforeChange + 1);
    // Written by hand: the table's trigger announces it all the same (decision 0004).
    await s.db.$executeRaw`UPDATE comment_scoring_settings SET adaptive = false WHERE account_id = ${s.accountId}`;
    await vi.waitFor(async () =>
      expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: false }),
    );
    // Audited, with what changed.
    const entry = await s.db.auditLog.findFirstOrThrow({
      where: { accountId: s.accountId, action: "comment_scoring.update" },
    });
    expect(entry).toMatchObject({
      actorId: s.moderator.user.id,
      metadata: { changed: ["adaptive"], adaptive: { from: false, to: true } },
    });
    // Nothing changed: nothing written.
    await s.db.$executeRaw`UPDATE comment_scoring_settings SET adaptive = true WHERE account_id = ${s.accountId}`;
    expect((await s.moderator.caller.scoring.updateLive({ adaptive: true })).changed).toEqual([]);
    expect(await s.db.auditLog.count({ where: { accountId: s.accountId, action: "comment_scoring.update" } })).toBe(1);
  });
});

describe("the adaptive layer", () => {
  it("moves later comments' scores by what moderators decided, once it has enough decisions", async () => {
    const s = await scoringSetup();
    await s.moderator.caller.scoring.updateLive({ adaptive: true });
    const before = await postComment(s, "the grifterati strike again today");
    expect(before.toxicity).toBe(0);

    for (let i = 0; i < 10; i++) {
      const c = await postComment(s, `the grifterati strike again ${i}`, { user: reader(`g${i}`) });
      await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    }
    for (let i = 0; i < 12; i++) {
      const c = await postComment(s, `this bloody council never listens ${i}`, { user: reader(`b${i}`) });
      // The layer acts from the 20th decision on: before, the base score as it is.
      if (i < 10) expect([c.toxicity, c.moderationReasons]).toEqual([25, ["toxicity.profanity"]]);
      await s.moderator.caller.moderation.act({ commentId: c.id, action: "approve" });
    }
    expect(await stat(s.db, s.accountId, "")).toEqual({ approved: 12, rejected: 10, spam: 0 });
    expect(await stat(s.db, s.accountId, "grifterati")).toEqual({ approved: 0, rejected: 10, spam: 0 });

    const raised = await postComment(s, "the grifterati strike again this week");
    expect(raised.toxicity).toBeGreaterThan(15);
    expect(raised.toxicity).toBeLessThanOrEqual(25);
    expect(raised.moderationReasons).toContain("adaptive.raised");
    const lowered = await postComment(s, "the bloody council never listens to anyone");
    expect(lowered.toxicity).toBeLessThan(10);
    expect(lowered.moderationReasons).toContain("adaptive.lowered");
    // The moderators' queue says it in words.
    const [shown] = (await s.moderator.caller.moderation.act({ commentId: raised.id, action: "reject" })).comment
      .explainedReasons;
    expect(shown).toEqual({
      code: "adaptive.raised",
      text: "Toxicity raised: moderators here rejected comments with these words before",
    });

    // Off: the base scorer's answer again.
    await s.owner.caller.scoring.updateLive({ adaptive: false });
    expect((await postComment(s, "the grifterati strike again tomorrow")).toxicity).toBe(0);
  });

  it("counts a comment once, for its latest decision: changed, undone, sent back by an edit, deleted", async () => {
    const s = await scoringSetup();
    const ada = reader("ada");
    const c = await postComment(s, "the grifterati strike again", { user: ada });
    const counts = () => Promise.all([stat(s.db, s.accountId, ""), stat(s.db, s.accountId, "grifterati strike")]);

    const rejected = await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    expect(await counts()).toEqual([
      { approved: 0, rejected: 1, spam: 0 },
      { approved: 0, rejected: 1, spam: 0 },
    ]);
    // Changed from the Rejected view: the count moves, it is not added.
    const approved = await s.moderator.caller.moderation.act({
      commentId: c.id,
      action: "approve",
      override: true,
      expectedVersion: rejected.comment.version,
    });
    expect(await counts()).toEqual([
      { approved: 1, rejected: 0, spam: 0 },
      { approved: 1, rejected: 0, spam: 0 },
    ]);
    // Undone: back to rejected.
    await s.moderator.caller.moderation.undo({ commentId: c.id, version: approved.comment.version });
    expect(await counts()).toEqual([
      { approved: 0, rejected: 1, spam: 0 },
      { approved: 0, rejected: 1, spam: 0 },
    ]);
    // Marked spam, then not spam (undecided again): nothing left.
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "spam", override: true });
    expect((await counts())[0]).toEqual({ approved: 0, rejected: 0, spam: 1 });
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "not_spam", override: true });
    expect(await counts()).toEqual([
      { approved: 0, rejected: 0, spam: 0 },
      { approved: 0, rejected: 0, spam: 0 },
    ]);

    // Approved, then edited into words that must wait: back to the queue, its approval uncounted.
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "approve" });
    expect((await counts())[0]).toEqual({ approved: 1, rejected: 0, spam: 0 });
    await editComment(s.db, {
      accountId: s.accountId,
      user: ada,
      encodedUrl: pageId(PAGE_URL),
      commentId: c.id,
      ops: [{ insert: "you idiot\n" }],
      now: new Date(),
    });
    expect((await s.db.comment.findUniqueOrThrow({ where: { id: c.id } })).moderationState).toBe("UNDECIDED");
    expect((await counts())[0]).toEqual({ approved: 0, rejected: 0, spam: 0 });

    // Rejected with its new words, then the comment row deleted: its counts go with it.
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    expect(await stat(s.db, s.accountId, "you idiot")).toEqual({ approved: 0, rejected: 1, spam: 0 });
    expect((await counts())[1]).toEqual({ approved: 0, rejected: 0, spam: 0 });
    await s.db.comment.delete({ where: { id: c.id } });
    expect(await stat(s.db, s.accountId, "you idiot")).toEqual({ approved: 0, rejected: 0, spam: 0 });
    expect((await counts())[0]).toEqual({ approved: 0, rejected: 0, spam: 0 });
  });
});

describe("the counts when readers and accounts are deleted", () => {
  it("take a deleted reader's decided comments away, and go with a deleted account", async () => {
    const s = await scoringSetup();
    const c = await postComment(s, "the grifterati strike again", { user: reader("gone") });
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    expect(await stat(s.db, s.accountId, "grifterati")).toEqual({ approved: 0, rejected: 1, spam: 0 });
    await s.db.member.delete({ where: { id: c.authorId } });
    expect(await stat(s.db, s.accountId, "grifterati")).toEqual({ approved: 0, rejected: 0, spam: 0 });
    const d = await postComment(s, "the grifterati strike once more", { user: reader("stays") });
    await s.moderator.caller.moderation.act({ commentId: d.id, action: "spam" });
    await s.db.account.delete({ where: { id: s.accountId } });
    expect(await s.db.commentTermStat.count({ where: { accountId: s.accountId } })).toBe(0);
  });
});
