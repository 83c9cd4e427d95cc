/**
 * Scoring tried before it is trusted (docs/engagement.md "Scoring"), shadow mode: each new
 * comment's shadow decision recorded beside the live one, without effect; the agreement figures
 * (the rule for comments nobody decided); promote and discard, audited and for owners only, and a
 * new shadow's figures starting afresh.
 */
import { describe, expect, it } from "vitest";

import { postComment, reader, scoringSetup, withFixedScorer } from "../../../testing/comment-scoring";
import { trpcCodeOf } from "../../../testing/staff";
import { setShadowScoring } from "./scoring-settings";

withFixedScorer();

describe("shadow mode", () => {
  it("records what the shadow would have done beside each new comment, without effect, and compares both with the moderators", async () => {
    const s = await scoringSetup();
    const now = Date.now();
    const daysAgo = (d: number) => new Date(now - d * 24 * 60 * 60 * 1000);
    // Tried from three days ago, at threshold 30 (live: 70).
    await setShadowScoring(s.db, {
      actor: { kind: "staff", id: s.moderator.user.id, accountId: s.accountId, roles: ["MODERATOR"] },
      input: { adaptive: false, externalScorer: false, toxicityThreshold: 30 },
      now: daysAgo(3),
    });
    // 35: the shadow holds it, live publishes it; moderators reject it.
    const insult = await postComment(s, "idiots everywhere in this thread", { user: reader("a1"), now: daysAgo(2) });
    // 77.3: both hold it; moderators approve it.
    const aimed = await postComment(s, "you idiot", { user: reader("a2"), now: daysAgo(2) });
    // 20: neither holds it; published, nobody reviewed it for two days, never reported: approved.
    const quiet = await postComment(s, "the council is pathetic", { user: reader("a3"), now: daysAgo(2) });
    // 25: neither holds it; written an hour ago, nobody decided: left out.
    const recent = await postComment(s, "this bloody council never listens", {
      user: reader("a4"),
      now: new Date(now - 3_600_000),
    });
    // 45: the shadow holds it, live does not; moderators reject it.
    const sworn = await postComment(s, "this is fucking brilliant", { user: reader("a5"), now: daysAgo(1.5) });

    expect(insult.isPublished).toBe(true);
    expect(await s.db.commentShadowScore.findUniqueOrThrow({ where: { commentId: insult.id } })).toMatchObject({
      accountId: s.accountId,
      liveHeld: false,
      liveToxicity: 35,
      liveSpam: false,
      shadowHeld: true,
      shadowToxicity: 35,
      shadowSpam: false,
      shadowReasons: ["toxicity.insult", "held.toxicity"],
      shadowThreshold: 30,
      shadowAdaptive: false,
      shadowExternal: false,
    });
    expect(await s.db.commentShadowScore.count({ where: { accountId: s.accountId } })).toBe(5);

    await s.moderator.caller.moderation.act({ commentId: insult.id, action: "reject" });
    await s.moderator.caller.moderation.act({ commentId: aimed.id, action: "approve" });
    await s.moderator.caller.moderation.act({ commentId: sworn.id, action: "spam" });
    void quiet;
    void recent;

    const { figures, settings } = await s.moderator.caller.scoring.overview();
    expect(settings.shadow).toMatchObject({ adaptive: false, externalScorer: false, toxicityThreshold: 30 });
    expect(figures).toMatchObject({
      days: 30,
      compared: 5,
      judged: 4,
      rejected: 2,
      approved: 2,
      approvedUnreviewed: 1,
      undecided: 1,
      disagreements: 2,
      // Live held only "you idiot" (approved): precision 0; it missed both rejections.
      live: { held: 1, heldRejected: 0, heldApproved: 1, missed: 2, precision: 0, recall: 0 },
      // The shadow held three: two rejected, one approved; it missed none.
      shadow: { held: 3, heldRejected: 2, heldApproved: 1, missed: 0, precision: 0.667, recall: 1 },
    });

    // A reported comment nobody decided is left out.
    await s.db.commentReport.create({
      data: { accountId: s.accountId, commentId: quiet.id, memberId: insult.authorId, reason: "ABUSE" },
    });
    expect((await s.moderator.caller.scoring.overview()).figures).toMatchObject({ judged: 3, undecided: 2 });
  });

  it("is promoted or discarded by owners only, audited, and a new shadow starts its figures afresh", async () => {
    const s = await scoringSetup();
    expect((await s.moderator.caller.scoring.overview()).figures).toBeNull();
    // Validated at the edge, and the external scorer only when the operator configured one.
    expect(
      await trpcCodeOf(
        s.moderator.caller.scoring.setShadow({ adaptive: true, externalScorer: false, toxicityThreshold: 0 }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await trpcCodeOf(
        s.moderator.caller.scoring.setShadow({ adaptive: true, externalScorer: true, toxicityThreshold: 50 }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await trpcCodeOf(s.owner.caller.scoring.promote())).toBe("CONFLICT");

    const set = await s.moderator.caller.scoring.setShadow({
      adaptive: true,
      externalScorer: false,
      toxicityThreshold: 50,
    });
    expect(set.changed).toEqual(["shadow"]);
    // The same again changes nothing and writes nothing.
    expect(
      (await s.moderator.caller.scoring.setShadow({ adaptive: true, externalScorer: false, toxicityThreshold: 50 }))
        .changed,
    ).toEqual([]);
    await postComment(s, "idiots everywhere in this thread");
    expect((await s.moderator.caller.scoring.overview()).figures).toMatchObject({ compared: 1 });

    expect(await trpcCodeOf(s.moderator.caller.scoring.promote())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(s.moderator.caller.scoring.discard())).toBe("FORBIDDEN");
    const promoted = await s.owner.caller.scoring.promote();
    expect(promoted.changed).toEqual(["adaptive", "toxicityThreshold", "shadow"]);
    expect(promoted.settings).toMatchObject({
      live: { adaptive: true, externalScorer: false, toxicityThreshold: 50 },
      shadow: null,
    });
    expect((await s.moderator.caller.moderation.settings()).toxicityThreshold).toBe(50);
    // Live now: a 45 passes at 50, but the comment is scored with the adaptive layer on.
    expect((await postComment(s, "this is fucking brilliant", { user: reader("z") })).isPublished).toBe(true);

    // A new shadow, then discarded: its figures begin with it, and none after the discard.
    await s.moderator.caller.scoring.setShadow({ adaptive: false, externalScorer: false, toxicityThreshold: 20 });
    expect((await s.moderator.caller.scoring.overview()).figures).toMatchObject({ compared: 0 });
    await s.owner.caller.scoring.discard();
    expect((await s.moderator.caller.scoring.overview()).figures).toBeNull();
    expect(await trpcCodeOf(s.owner.caller.scoring.discard())).toBe("CONFLICT");

    const audit = await s.db.auditLog.findMany({
      where: { accountId: s.accountId, action: { startsWith: "comment_scoring." } },
      orderBy: { createdAt: "asc" },
      select: { action: true, actorId: true, metadata: true },
    });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ["comment_scoring.shadow_set", s.moderator.user.id],
      ["comment_scoring.promote", s.owner.user.id],
      ["comment_scoring.shadow_set", s.moderator.user.id],
      ["comment_scoring.shadow_discard", s.owner.user.id],
    ]);
    expect(audit[1]!.metadata).toMatchObject({
      from: { adaptive: false, externalScorer: false, toxicityThreshold: 70 },
      to: { adaptive: true, externalScorer: false, toxicityThreshold: 50 },
    });
  });
});
