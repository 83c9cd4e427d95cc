import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { moderationSettingsOf } from "../../engagement/moderation/settings";
import { createTestTeam, trpcCodeOf } from "../../testing/staff";

describe("moderation router: settings", () => {
  it("are kept in memory for the comment services, and an update is seen by the next comment at its commit", async () => {
    const db = await getDb();
    const { owner, moderator } = await createTestTeam(db, "kept", { owner: ["OWNER"], moderator: ["MODERATOR"] });
    let reads = 0;
    const counted = new Proxy(db, {
      get(target, property, receiver) {
        if (property === "commentModerationSettings") reads++;
        return Reflect.get(target, property, receiver) as unknown;
      },
    }) as Db;
    expect(await moderationSettingsOf(counted, owner.account.id)).toMatchObject({ mode: "post_moderation" });
    expect(await moderationSettingsOf(counted, owner.account.id)).toMatchObject({ mode: "post_moderation" });
    expect(reads).toBe(1);
    await moderator.caller.moderation.updateSettings({ mode: "pre_moderation" });
    expect(await moderationSettingsOf(counted, owner.account.id)).toMatchObject({ mode: "pre_moderation" });
    expect(reads).toBe(2);
  });

  it("answers the defaults, saves what moderators change, audits it without the words", async () => {
    const db = await getDb();
    const { owner, moderator } = await createTestTeam(db, "alpha", { owner: ["OWNER"], moderator: ["MODERATOR"] });
    expect(await moderator.caller.moderation.settings()).toEqual({
      mode: "post_moderation",
      toxicityThreshold: 70,
      bannedWords: [],
      holdLinksFromNewReaders: true,
      guestCommentsAllowed: false,
      confidentialCommentsAllowed: true,
      preModerateUntilApproved: 0,
      trustRejectionRate: 0,
      trustWindowDays: 30,
      trustMinDecisions: 5,
      repeatedPostWindowMinutes: 0,
      holdDisposableEmails: false,
      editWindowMinutes: 0,
      unscoredLanguages: "publish",
      languageWordLists: "flag",
      updatedAt: null,
    });

    const saved = await moderator.caller.moderation.updateSettings({
      mode: "pre_moderation",
      toxicityThreshold: 55,
      bannedWords: [
        { word: "  Widget ", action: "hold" },
        { word: "gizmo", action: "reject" },
      ],
    });
    expect(saved.changed).toEqual(["mode", "toxicityThreshold", "bannedWords"]);
    expect(saved.settings).toMatchObject({
      mode: "pre_moderation",
      toxicityThreshold: 55,
      bannedWords: [
        { word: "Widget", action: "hold" },
        { word: "gizmo", action: "reject" },
      ],
      holdLinksFromNewReaders: true,
    });
    expect(await moderationSettingsOf(db, owner.account.id)).toMatchObject({ mode: "pre_moderation" });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "comment_moderation.update" } });
    expect(audit.actorId).toBe(moderator.user.id);
    expect(audit.metadata).toEqual({
      changed: ["mode", "toxicityThreshold", "bannedWords"],
      mode: { from: "post_moderation", to: "pre_moderation" },
      toxicityThreshold: { from: 70, to: 55 },
      bannedWords: { from: 0, to: 2 },
    });
    expect(JSON.stringify(audit.metadata)).not.toContain("gizmo");

    // The same again writes nothing; the owner may change it too.
    expect((await owner.caller.moderation.updateSettings({ toxicityThreshold: 55 })).changed).toEqual([]);
    expect(await db.auditLog.count({ where: { action: "comment_moderation.update" } })).toBe(1);
    const more = await owner.caller.moderation.updateSettings({
      guestCommentsAllowed: true,
      confidentialCommentsAllowed: false,
      holdLinksFromNewReaders: false,
    });
    // In the order of the settings, whatever the order given.
    expect(more.changed).toEqual(["holdLinksFromNewReaders", "guestCommentsAllowed", "confidentialCommentsAllowed"]);
    expect(await db.auditLog.count({ where: { action: "comment_moderation.update" } })).toBe(2);
  });

  it("refuses bad input (400) and keeps editors and other accounts out", async () => {
    const db = await getDb();
    const { moderator, editor } = await createTestTeam(db, "beta", { moderator: ["MODERATOR"], editor: ["EDITOR"] });
    const { moderator: other } = await createTestTeam(db, "gamma", { moderator: ["MODERATOR"] });
    const bad: unknown[] = [
      { mode: "none" },
      { toxicityThreshold: 0 },
      { toxicityThreshold: 101 },
      { toxicityThreshold: 50.5 },
      { bannedWords: [{ word: "", action: "hold" }] },
      { bannedWords: [{ word: "!!!", action: "hold" }] },
      { bannedWords: [{ word: "x", action: "delete" }] },
      { bannedWords: [{ word: "x".repeat(101), action: "hold" }] },
      {
        bannedWords: [
          { word: "Sp4m", action: "hold" },
          { word: "spam", action: "reject" },
        ],
      },
      { bannedWords: Array.from({ length: 501 }, (_, i) => ({ word: `w${i}`, action: "hold" })) },
      { guestCommentsAllowed: "yes" },
      { unknown: true },
    ];
    for (const input of bad) {
      expect(
        await trpcCodeOf(moderator.caller.moderation.updateSettings(input as never)),
        JSON.stringify(input).slice(0, 80),
      ).toBe("BAD_REQUEST");
    }
    expect(await trpcCodeOf(editor.caller.moderation.settings())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.moderation.updateSettings({ mode: "pre_moderation" }))).toBe("FORBIDDEN");
    await other.caller.moderation.updateSettings({ mode: "pre_moderation" });
    expect((await moderator.caller.moderation.settings()).mode).toBe("post_moderation");
  });
});
