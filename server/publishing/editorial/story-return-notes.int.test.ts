import { describe, expect, it } from "vitest";

import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { editorialSetup, testClock } from "../../testing/editorial-fixture";
import { createTestPublisher } from "../../testing/publishing-factories";
import { createTestStaff, insertEditor, trpcCodeOf } from "../../testing/staff";
import { RETURN_NOTE_MAX } from "./stories.schema";
import { transitionStory } from "./stories/moves";
import { createStory } from "./stories/write";
import { getReturnNote } from "./story-return-notes";

const at = testClock("2026-04-01T09:00:00.000Z");

describe("the note to the writer with a move back to draft", () => {
  it("is shown while the story is a draft after that move, with who sent it back, and ends with the next move", async () => {
    const { db, actor, ctx } = await editorialSetup(at, [{ name: "Editor Ed" }]);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Needs work" } });
    const id = story.id;
    const submitted = await transitionStory(db, { ...ctx(1), input: { id, version: 1, action: "submit" } });
    expect(await getReturnNote(db, { actor, storyId: id })).toBeNull();
    const rejected = await transitionStory(db, {
      ...ctx(2),
      input: { id, version: submitted.story.version, action: "reject", note: "  Add a second source.  " },
    });
    expect(rejected.story.status).toBe("DRAFT");
    expect(await getReturnNote(db, { actor, storyId: id })).toEqual({
      note: "Add a second source.",
      by: "Editor Ed",
      at: at(2),
      action: "reject",
    });
    // Submitting again ends it; a move back without a note leaves none.
    const again = await transitionStory(db, {
      ...ctx(3),
      input: { id, version: rejected.story.version, action: "submit" },
    });
    expect(await getReturnNote(db, { actor, storyId: id })).toBeNull();
    const approved = await transitionStory(db, {
      ...ctx(4),
      input: { id, version: again.story.version, action: "approve" },
    });
    const back = await transitionStory(db, {
      ...ctx(5),
      input: { id, version: approved.story.version, action: "back-to-draft", note: "" },
    });
    expect(back.story.status).toBe("DRAFT");
    expect(await getReturnNote(db, { actor, storyId: id })).toBeNull();
  });

  it("refuses a note with a move that is not back to draft, and one too long, changing nothing", async () => {
    const { db, ctx } = await editorialSetup(at);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Going up" } });
    expect(
      await codeOf(
        transitionStory(db, { ...ctx(1), input: { id: story.id, version: 1, action: "submit", note: "Hi" } }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(
      await codeOf(
        transitionStory(db, {
          ...ctx(1),
          input: { id: story.id, version: 1, action: "submit", note: "x".repeat(RETURN_NOTE_MAX + 1) },
        }),
      ),
    ).toBe("BAD_REQUEST");
    const after = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(after).toMatchObject({ status: "DRAFT", version: 1 });
    expect(await db.auditLog.count({ where: { targetId: story.id, action: "story.submit" } })).toBe(0);
  });

  it("goes through tRPC for the account's editors only", async () => {
    const { db, account } = await editorialSetup(at);
    const staff = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const { story } = await staff.caller.stories.create({ headline: "Through the API" });
    const submitted = await staff.caller.stories.transition({ id: story.id, version: story.version, action: "submit" });
    await staff.caller.stories.transition({
      id: story.id,
      version: submitted.story.version,
      action: "reject",
      note: "Shorter, please.",
    });
    expect(await staff.caller.stories.returnNote({ storyId: story.id })).toMatchObject({
      note: "Shorter, please.",
      action: "reject",
    });
    expect(await trpcCodeOf(staff.caller.stories.returnNote({ storyId: "not-a-uuid" }))).toBe("BAD_REQUEST");
    const stranger = await insertEditor(db, (await createTestPublisher(db)).id);
    expect(await codeOf(getReturnNote(db, { actor: stranger, storyId: story.id }))).toBe("NOT_FOUND");
  });
});
