import { describe, expect, it } from "vitest";

import {
  canEdit,
  editWindowText,
  heldOfReader,
  savedSort,
  saveSort,
  SORT_KEY,
  withHeldReplies,
  withoutFeatured,
} from "./conversation";

function memoryStore(initial: Record<string, string> = {}) {
  const data = { ...initial };
  return { data, getItem: (k: string) => data[k] ?? null, setItem: (k: string, v: string) => void (data[k] = v) };
}

describe("the reader's sort", () => {
  it("is read back as saved, newest when none or unknown", () => {
    const store = memoryStore();
    expect(savedSort(store)).toBe("newest");
    saveSort(store, "most_reacted");
    expect(store.data[SORT_KEY]).toBe("most_reacted");
    expect(savedSort(store)).toBe("most_reacted");
    expect(savedSort(memoryStore({ [SORT_KEY]: "loudest" }))).toBe("newest");
    expect(savedSort(null)).toBe("newest");
  });

  it("survives a storage that throws (blocked, full)", () => {
    const throwing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(savedSort(throwing)).toBe("newest");
    expect(() => saveSort(throwing, "oldest")).not.toThrow();
  });
});

describe("the edit window", () => {
  const now = Date.parse("2026-11-26T10:00:00.000Z");
  const at = (ms: number) => new Date(now + ms).toISOString();

  it("says whole minutes left, rounded down, and less than a minute in the last one", () => {
    expect(editWindowText(at(4 * 60_000 + 30_000), now)).toEqual({ key: "editFor", values: { n: 4 } });
    expect(editWindowText(at(2 * 60_000), now)).toEqual({ key: "editFor", values: { n: 2 } });
    expect(editWindowText(at(90_000), now)).toEqual({ key: "editFor", values: { n: 1 } });
    expect(editWindowText(at(59_000), now)).toEqual({ key: "editForLessThanMinute" });
  });

  it("says nothing and allows no edit once it ends; no window allows edits and says nothing", () => {
    expect(editWindowText(at(0), now)).toBeNull();
    expect(canEdit(at(0), now)).toBe(false);
    expect(canEdit(at(-1), now)).toBe(false);
    expect(canEdit(at(1), now)).toBe(true);
    expect(canEdit(null, now)).toBe(true);
    expect(canEdit(undefined, now)).toBe(true);
    expect(editWindowText(null, now)).toBeNull();
  });
});

describe("the list beside the featured strip", () => {
  it("leaves out the featured comments and keeps the order of the rest", () => {
    const list = [{ id: 5 }, { id: 4 }, { id: 3 }, { id: 2 }];
    expect(withoutFeatured(list, [{ id: 3 }, { id: 9 }])).toEqual([{ id: 5 }, { id: 4 }, { id: 2 }]);
    expect(withoutFeatured(list, [])).toEqual(list);
  });
});

describe("the reader's held comments", () => {
  const c = (
    id: number,
    parent: number | null = null,
    replies: { id: number; parent_comment_id: number | null }[] = [],
  ) => ({
    id,
    parent_comment_id: parent,
    replies,
  });

  it("are what the server says waits plus the frame's own, once each, minus what is now published", () => {
    const published = [c(1, null, [c(2, 1)])];
    expect(heldOfReader([c(5), c(2, 1)], [c(5), c(6, 1)], published).map((x) => x.id)).toEqual([5, 6]);
    expect(heldOfReader([], [], published)).toEqual([]);
  });

  it("show held replies under their parent, after the published replies", () => {
    const list = withHeldReplies([c(1, null, [c(2, 1)]), c(3)], [c(9, 1), c(8)]);
    expect(list[0]!.replies.map((r) => r.id)).toEqual([2, 9]);
    expect(list[1]!.replies).toEqual([]);
  });
});
