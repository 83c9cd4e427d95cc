import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { announce, thread } from "./thread-state";

describe("announce", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    thread.live = { textContent: "" } as HTMLElement;
  });
  afterEach(() => vi.useRealTimers());

  it("puts the words in the live region, then takes them out so the frame's text holds one copy", () => {
    announce("A message from the moderators");
    expect(thread.live.textContent).toBe("A message from the moderators");
    vi.advanceTimersByTime(4_999);
    expect(thread.live.textContent).toBe("A message from the moderators");
    vi.advanceTimersByTime(1);
    expect(thread.live.textContent).toBe("");
  });

  it("keeps a newer announcement for its own full time", () => {
    announce("first");
    vi.advanceTimersByTime(4_000);
    announce("second");
    vi.advanceTimersByTime(4_000);
    expect(thread.live.textContent).toBe("second");
    vi.advanceTimersByTime(1_000);
    expect(thread.live.textContent).toBe("");
  });
});
