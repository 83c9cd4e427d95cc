import { describe, expect, it } from "vitest";

import { CONTENT_EVENTS } from "../../webhooks/events.schema";
import { STORY_ACTIONS, STORY_STATUSES, type TStoryAction, type TStoryStatus } from "./stories.schema";
import { canDelete, eventForSave, movesFrom, resolveMove, WORKFLOW } from "./workflow";

/** Every legal move, written out independently of the table: [from, action, to, event]. */
const LEGAL: [TStoryStatus, TStoryAction, TStoryStatus, string][] = [
  ["DRAFT", "submit", "SUBMITTED", "story-submit"],
  ["SUBMITTED", "approve", "APPROVED", "story-approve"],
  ["SUBMITTED", "reject", "DRAFT", "story-reject"],
  ["APPROVED", "publish", "PUBLISHED", "story-publish"],
  ["APPROVED", "back-to-draft", "DRAFT", "story-reject"],
  ["PUBLISHED", "retract", "RETRACTED", "story-retract"],
  ["RETRACTED", "back-to-draft", "DRAFT", "story-reject"],
];

describe("story workflow", () => {
  it.each(LEGAL)("%s --%s--> %s emits %s", (from, action, to, event) => {
    const result = resolveMove(from, action);
    expect(result).toMatchObject({ ok: true, move: { from, to, event } });
  });

  it("refuses every other (status, action) pair, naming the current status", () => {
    let refused = 0;
    for (const status of STORY_STATUSES) {
      for (const action of STORY_ACTIONS) {
        if (LEGAL.some(([f, a]) => f === status && a === action)) continue;
        const result = resolveMove(status, action);
        expect(result.ok, `${status} ${action}`).toBe(false);
        if (!result.ok) expect(result.reason).toContain(`A ${status.toLowerCase()} story`);
        refused++;
      }
    }
    expect(refused).toBe(STORY_STATUSES.length * STORY_ACTIONS.length - LEGAL.length);
  });

  it("has exactly the legal moves, each with a known content event", () => {
    expect(WORKFLOW).toHaveLength(LEGAL.length);
    for (const move of WORKFLOW) expect(CONTENT_EVENTS).toContain(move.event);
  });

  it("lists the moves open from each status", () => {
    expect(movesFrom("DRAFT").map((m) => m.action)).toEqual(["submit"]);
    expect(movesFrom("SUBMITTED").map((m) => m.action)).toEqual(["approve", "reject"]);
    expect(movesFrom("APPROVED").map((m) => m.action)).toEqual(["publish", "back-to-draft"]);
    expect(movesFrom("PUBLISHED").map((m) => m.action)).toEqual(["retract"]);
    expect(movesFrom("RETRACTED").map((m) => m.action)).toEqual(["back-to-draft"]);
  });

  it("emits story-update only when a published story is saved", () => {
    expect(eventForSave("PUBLISHED")).toBe("story-update");
    for (const status of STORY_STATUSES.filter((s) => s !== "PUBLISHED")) expect(eventForSave(status)).toBeNull();
  });

  it("deletes drafts only", () => {
    expect(STORY_STATUSES.filter(canDelete)).toEqual(["DRAFT"]);
  });
});
