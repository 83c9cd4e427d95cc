import { describe, expect, it } from "vitest";

import { toJsonText, withJsonText } from "./json-text";

describe("toJsonText", () => {
  it("writes an object given its text as that text, and everything else as JSON.stringify does", () => {
    const story = withJsonText({ id: "a", headline: "Parsed" }, '{"id":"a","headline":"Kept"}');
    const body = { stories: [story, { id: "b" }], total: 2, when: new Date(0), skipped: undefined };
    expect(toJsonText(body)).toBe(
      '{"stories":[{"id":"a","headline":"Kept"},{"id":"b"}],"total":2,"when":"1970-01-01T00:00:00.000Z"}',
    );
    expect(JSON.parse(toJsonText({ nested: { items: [{ story }] } }))).toEqual({
      nested: { items: [{ story: { id: "a", headline: "Kept" } }] },
    });
  });

  it("is JSON.stringify outside toJsonText, for copies, and without any text given", () => {
    const story = withJsonText({ id: "a", headline: "Parsed" }, '{"id":"a","headline":"Kept"}');
    expect(JSON.stringify({ story })).toBe('{"story":{"id":"a","headline":"Parsed"}}');
    expect(toJsonText({ story: { ...story } })).toBe('{"story":{"id":"a","headline":"Parsed"}}');
    expect(Object.keys(story)).toEqual(["id", "headline"]);
    const plain = { a: [1, "two", null, { b: "\u0000x:0" }] };
    expect(toJsonText(plain)).toBe(JSON.stringify(plain));
  });

  it("is not fooled by strings that look like its placeholders", () => {
    const story = withJsonText({ id: "a" }, '{"id":"kept"}');
    // Whatever a reader writes, a NUL is escaped by JSON and the marker is random per call.
    const sneaky = ["\u0000", "\\u0000", '"\\u00000:0"', "\u00000:0"];
    const text = toJsonText({ sneaky, story });
    expect(JSON.parse(text)).toEqual({ sneaky, story: { id: "kept" } });
  });
});
