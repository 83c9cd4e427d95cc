import { describe, expect, it } from "vitest";

import { readLiveNotice, summarizeEvents } from "./changes";
import { sseEvent, sseRetry } from "./sse";

describe("live notices", () => {
  it("are read from the trigger's JSON, and nothing else is one", () => {
    expect(readLiveNotice('{"account":1,"page":2,"from":10,"to":12}')).toEqual({
      account: 1,
      page: 2,
      from: 10n,
      to: 12n,
    });
    for (const payload of [
      undefined,
      "",
      "null",
      "[]",
      '{"account":1,"page":2,"from":"10","to":12}',
      '{"heard":"x"}',
      "{",
    ])
      expect(readLiveNotice(payload)).toBeNull();
  });
});

describe("a run of events as one change", () => {
  it("names each comment once, under its last kind, with the newest cursor", () => {
    const change = summarizeEvents(
      [
        { id: 5n, commentId: 1, kind: "created" },
        { id: 6n, commentId: 2, kind: "created" },
        { id: 7n, commentId: 1, kind: "removed" },
        { id: 8n, commentId: 3, kind: "edited" },
        { id: 9n, commentId: 2, kind: "edited" },
      ],
      4,
    );
    expect(change).toEqual({ cursor: "9", created: [], edited: [3, 2], removed: [1], total_count: 4 });
    expect(summarizeEvents([], 4)).toBeNull();
  });
});

describe("server-sent events", () => {
  it("are one event per block, the data JSON on one line", () => {
    const text = new TextDecoder().decode(sseEvent("change", { words: "two\nlines" }, "12"));
    expect(text).toBe('event: change\nid: 12\ndata: {"words":"two\\nlines"}\n\n');
    expect(new TextDecoder().decode(sseRetry(3000))).toBe("retry: 3000\n\n");
  });
});
