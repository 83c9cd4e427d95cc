/**
 * Contributors and the no-self-approval rule, through the dashboard's stories.* and staff.*
 * procedures: what a contributor may do (write, edit and submit their own drafts), every refusal
 * (403, nothing changed), and the account setting that stops anyone approving, publishing or
 * scheduling a story they wrote. PGlite and PostgreSQL.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { createTestPublisher } from "../../testing/publishing-factories";
import { trpcCodeOf as codeOf, createTestStaff } from "../../testing/staff";
import { forgetPublisherCache } from "../publisher";

beforeEach(() => forgetPublisherCache());

async function newsroom() {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  const staff = async (roles: Parameters<typeof createTestStaff>[1]["roles"], name: string) =>
    createTestStaff(db, { account: account.id, roles, name });
  return {
    db,
    account,
    owner: await staff(["OWNER"], "Olive Owner"),
    editor: await staff(["EDITOR"], "Eddie Editor"),
    contributor: await staff(["CONTRIBUTOR"], "Cora Contributor"),
    other: await staff(["CONTRIBUTOR"], "Otto Other"),
  };
}

const inAnHour = () => new Date(Date.now() + 60 * 60_000);

describe("contributors", () => {
  it("write, edit and submit their own drafts; an editor then approves and publishes", async () => {
    const { db, contributor, editor } = await newsroom();
    const { story } = await contributor.caller.stories.create({ headline: "Council meets" });
    expect(story).toMatchObject({ status: "DRAFT", version: 1 });
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).ownerId).toBe(contributor.user.id);

    const edited = await contributor.caller.stories.update({
      id: story.id,
      version: 1,
      headline: "Council meets late",
    });
    expect(edited.story).toMatchObject({ headline: "Council meets late", version: 2 });
    expect((await contributor.caller.stories.get({ id: story.id })).headline).toBe("Council meets late");
    expect(edited.story).toMatchObject({ canEdit: true, canDelete: true, canSchedule: false });
    expect(edited.story.moves.map((m) => m.action)).toEqual(["submit"]);
    const submitted = await contributor.caller.stories.transition({ id: story.id, version: 2, action: "submit" });
    expect(submitted.story.status).toBe("SUBMITTED");
    // What the editor shows them: no buttons for what they may not do.
    expect(submitted.story).toMatchObject({ moves: [], canEdit: false, canDelete: false });
    expect((await editor.caller.stories.get({ id: story.id })).moves.map((m) => m.action)).toEqual([
      "approve",
      "reject",
    ]);

    await editor.caller.stories.transition({ id: story.id, version: 3, action: "approve" });
    const published = await editor.caller.stories.transition({ id: story.id, version: 4, action: "publish" });
    expect(published.story.status).toBe("PUBLISHED");
  });

  it("cannot approve, reject, publish, schedule, retract or send back their stories (403, nothing changes)", async () => {
    const { db, contributor, editor } = await newsroom();
    const { story } = await contributor.caller.stories.create({ headline: "Flood warning" });
    await contributor.caller.stories.transition({ id: story.id, version: 1, action: "submit" });
    const api = contributor.caller.stories;

    for (const action of ["approve", "reject"] as const) {
      await expect(api.transition({ id: story.id, version: 2, action })).rejects.toThrow(
        "Contributors write and submit stories; an editor approves, publishes and schedules them.",
      );
      expect(await codeOf(api.transition({ id: story.id, version: 2, action }))).toBe("FORBIDDEN");
    }
    await editor.caller.stories.transition({ id: story.id, version: 2, action: "approve" });
    expect(await codeOf(api.transition({ id: story.id, version: 3, action: "publish" }))).toBe("FORBIDDEN");
    expect(await codeOf(api.transition({ id: story.id, version: 3, action: "back-to-draft" }))).toBe("FORBIDDEN");
    expect(await codeOf(api.schedule({ id: story.id, version: 3, publishAt: inAnHour() }))).toBe("FORBIDDEN");
    // Once approved it is the editors' story: the contributor cannot change it either.
    expect(await codeOf(api.update({ id: story.id, version: 3, headline: "Changed" }))).toBe("FORBIDDEN");

    await editor.caller.stories.schedule({ id: story.id, version: 3, publishAt: inAnHour() });
    expect(await codeOf(api.unschedule({ id: story.id, version: 4 }))).toBe("FORBIDDEN");
    await editor.caller.stories.transition({ id: story.id, version: 4, action: "publish" });
    expect(await codeOf(api.transition({ id: story.id, version: 5, action: "retract" }))).toBe("FORBIDDEN");

    const after = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(after).toMatchObject({ status: "PUBLISHED", version: 5, headline: "Flood warning" });
  });

  it("cannot edit, submit or delete someone else's story, nor use bulk actions", async () => {
    const { db, contributor, other, editor } = await newsroom();
    const { story: theirs } = await other.caller.stories.create({ headline: "Otto's draft" });
    const { story: editors } = await editor.caller.stories.create({ headline: "Editor's draft" });
    const api = contributor.caller.stories;
    for (const id of [theirs.id, editors.id]) {
      await expect(api.update({ id, version: 1, headline: "Mine now" })).rejects.toThrow(
        "Contributors can change only stories they wrote.",
      );
      expect(await codeOf(api.transition({ id, version: 1, action: "submit" }))).toBe("FORBIDDEN");
      expect(await codeOf(api.delete({ id, version: 1 }))).toBe("FORBIDDEN");
    }
    expect(await codeOf(api.bulk({ action: "submit", ids: [theirs.id] }))).toBe("FORBIDDEN");
    expect(await db.story.count({ where: { id: { in: [theirs.id, editors.id] }, version: 1, status: "DRAFT" } })).toBe(
      2,
    );

    // Their own draft they may delete.
    const { story: mine } = await api.create({ headline: "Mine" });
    expect(await api.delete({ id: mine.id, version: 1 })).toEqual({ deleted: true });
  });

  it("are refused the rest of the content area and every owner page", async () => {
    const { contributor } = await newsroom();
    expect(await codeOf(contributor.caller.staff.list())).toBe("FORBIDDEN");
    expect(await codeOf(contributor.caller.staff.editorialRules())).toBe("FORBIDDEN");
    expect(await codeOf(contributor.caller.organise.sections.list())).toBe("FORBIDDEN");
    // The media library they may browse (to choose an image), not change.
    expect(await codeOf(contributor.caller.media.list({}))).toBe("OK");
    expect(await codeOf(contributor.caller.media.updateAlt({ key: "1/2026/01/x.png", alt: "x" }))).toBe("FORBIDDEN");
  });

  it("can be given the role by an owner", async () => {
    const { owner, editor } = await newsroom();
    const changed = await owner.caller.staff.setRoles({ userId: editor.user.id, roles: ["CONTRIBUTOR"] });
    expect(changed).toBeTruthy();
    const listed = await owner.caller.staff.list();
    expect(listed.find((u) => u.id === editor.user.id)?.roles).toEqual(["CONTRIBUTOR"]);
  });
});

describe("no self-approval", () => {
  it("is off by default: an editor may approve and publish their own story", async () => {
    const { owner, editor } = await newsroom();
    expect(await owner.caller.staff.editorialRules()).toEqual({ noSelfApproval: false, previewUrl: null });
    const { story } = await editor.caller.stories.create({ headline: "My own" });
    await editor.caller.stories.transition({ id: story.id, version: 1, action: "submit" });
    await editor.caller.stories.transition({ id: story.id, version: 2, action: "approve" });
    const published = await editor.caller.stories.transition({ id: story.id, version: 3, action: "publish" });
    expect(published.story.status).toBe("PUBLISHED");
  });

  it("when on, refuses approving, publishing and scheduling one's own story, owners included; others may", async () => {
    const { db, account, owner, editor } = await newsroom();
    const second = await createTestStaff(db, { account: account.id, roles: ["EDITOR"], name: "Second Editor" });
    expect(await owner.caller.staff.setEditorialRules({ noSelfApproval: true })).toEqual({
      noSelfApproval: true,
      previewUrl: null,
    });
    expect(await db.auditLog.count({ where: { accountId: account.id, action: "account.editorial-rules" } })).toBe(1);

    const { story } = await editor.caller.stories.create({ headline: "Four eyes" });
    await editor.caller.stories.transition({ id: story.id, version: 1, action: "submit" });
    await expect(editor.caller.stories.transition({ id: story.id, version: 2, action: "approve" })).rejects.toThrow(
      "This account does not let anyone approve, publish or schedule a story they wrote; another editor must.",
    );
    const submitted = await editor.caller.stories.get({ id: story.id });
    expect(submitted.moves.map((m) => m.action)).toEqual(["reject"]);
    // What the rule holds back is listed with its reason, for the editor to show disabled.
    const REASON =
      "This account does not let anyone approve, publish or schedule a story they wrote; another editor must.";
    expect(submitted.blockedMoves).toEqual([expect.objectContaining({ action: "approve", reason: REASON })]);
    expect((await second.caller.stories.get({ id: story.id })).blockedMoves).toEqual([]);
    await second.caller.stories.transition({ id: story.id, version: 2, action: "approve" });
    const approved = await editor.caller.stories.get({ id: story.id });
    expect(approved).toMatchObject({ canSchedule: false, canEdit: true, scheduleBlockedReason: REASON });
    expect(approved.blockedMoves.map((m) => [m.action, m.reason])).toEqual([["publish", REASON]]);
    expect(await codeOf(editor.caller.stories.transition({ id: story.id, version: 3, action: "publish" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(editor.caller.stories.schedule({ id: story.id, version: 3, publishAt: inAnHour() }))).toBe(
      "FORBIDDEN",
    );
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("APPROVED");
    // The writer may still send it back or retract it: only making it public is four-eyes.
    const published = await second.caller.stories.transition({ id: story.id, version: 3, action: "publish" });
    expect(published.story.status).toBe("PUBLISHED");

    const { story: owners } = await owner.caller.stories.create({ headline: "The owner's" });
    await owner.caller.stories.transition({ id: owners.id, version: 1, action: "submit" });
    expect(await codeOf(owner.caller.stories.transition({ id: owners.id, version: 2, action: "approve" }))).toBe(
      "FORBIDDEN",
    );
    await editor.caller.stories.transition({ id: owners.id, version: 2, action: "approve" });

    await owner.caller.staff.setEditorialRules({ noSelfApproval: false });
    expect((await owner.caller.stories.transition({ id: owners.id, version: 3, action: "publish" })).story.status).toBe(
      "PUBLISHED",
    );
  });

  it("is the owners' to set; bad input is refused", async () => {
    const { owner, editor } = await newsroom();
    expect(await codeOf(editor.caller.staff.setEditorialRules({ noSelfApproval: true }))).toBe("FORBIDDEN");
    expect(
      await codeOf(
        owner.caller.staff.setEditorialRules({ noSelfApproval: "yes" } as unknown as { noSelfApproval: boolean }),
      ),
    ).toBe("BAD_REQUEST");
    expect(await owner.caller.staff.editorialRules()).toEqual({ noSelfApproval: false, previewUrl: null });
  });
});

describe("the preview URL setting", () => {
  it("takes an http(s) template with {token}, private addresses included, and empties to null", async () => {
    const { owner } = await newsroom();
    const set = (previewUrl: string) => owner.caller.staff.setEditorialRules({ previewUrl });
    expect(await set(" http://localhost:4000/preview/{slug}?t={token} ")).toEqual({
      noSelfApproval: false,
      previewUrl: "http://localhost:4000/preview/{slug}?t={token}",
    });
    for (const bad of [
      "https://news.example.com/preview",
      "javascript:alert(1)//{token}",
      "ftp://x.test/{token}",
      "not a url {token}",
    ]) {
      await expect(set(bad)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    expect((await owner.caller.staff.editorialRules()).previewUrl).toBe(
      "http://localhost:4000/preview/{slug}?t={token}",
    );
    expect(await set("")).toMatchObject({ previewUrl: null });
  });
});
