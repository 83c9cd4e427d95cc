import { describe, expect, it } from "vitest";

import { asciiJson, lazyJsonObject, toJsonText } from "./json-text";

describe("toJsonText", () => {
  it("writes an object given its text as that text, and everything else as JSON.stringify does", () => {
    const story = lazyJsonObject('{"id":"a","headline":"Kept"}', { id: "a" });
    const body = { stories: [story, { id: "b" }], total: 2, when: new Date(0), skipped: undefined };
    expect(toJsonText(body)).toBe(
      '{"stories":[{"id":"a","headline":"Kept"},{"id":"b"}],"total":2,"when":"1970-01-01T00:00:00.000Z"}',
    );
    expect(JSON.parse(toJsonText({ nested: { items: [{ story }] } }))).toEqual({
      nested: { items: [{ story: { id: "a", headline: "Kept" } }] },
    });
  });

  it("is JSON.stringify outside toJsonText, for copies, and without any text given", () => {
    const text = '{"id":"a","headline":"Kept","n":[1,null]}';
    const story = lazyJsonObject<Record<string, unknown>>(text, { id: "a" });
    expect(JSON.stringify({ story })).toBe(`{"story":${text}}`);
    expect(toJsonText({ story: { ...story } })).toBe(`{"story":${text}}`);
    const plain = { a: [1, "two", null, { b: "\u0000x:0" }] };
    expect(toJsonText(plain)).toBe(JSON.stringify(plain));
  });

  it("is not fooled by strings that look like its placeholders", () => {
    const story = lazyJsonObject('{"id":"kept"}', { id: "kept" });
    // Whatever a reader writes, a NUL is escaped by JSON and the marker is random, never written out.
    const sneaky = ["\u0000", "\\u0000", '"\\u00000:0"', "\u00000:0"];
    const text = toJsonText({ sneaky, story });
    expect(JSON.parse(text)).toEqual({ sneaky, story: { id: "kept" } });
  });

  it("gives objects that are parsed only when looked into, and sent as their text until changed", () => {
    const text = '{"id":"a","headline":"Kept","tags":[{"slug":"t"}],"votes":2}';
    const story = lazyJsonObject<Record<string, unknown>>(text, { id: "a" });
    expect(story.id).toBe("a");
    expect(toJsonText({ stories: [story] })).toBe(`{"stories":[${text}]}`);
    expect(story.headline).toBe("Kept");
    expect("tags" in story).toBe(true);
    expect(Object.keys(story)).toEqual(["id", "headline", "tags", "votes"]);
    expect({ ...story }).toEqual({ id: "a", headline: "Kept", tags: [{ slug: "t" }], votes: 2 });
    expect(story).toEqual({ id: "a", headline: "Kept", tags: [{ slug: "t" }], votes: 2 });
    expect(JSON.stringify(story)).toBe(text);

    story.votes = 3;
    expect(toJsonText({ story })).toBe('{"story":{"id":"a","headline":"Kept","tags":[{"slug":"t"}],"votes":3}}');
    const other = lazyJsonObject<Record<string, unknown>>(text, { id: "a" });
    delete other.tags;
    expect(toJsonText(other)).toBe('{"id":"a","headline":"Kept","votes":2}');
  });

  it("writes what surrounds kept texts ASCII, the same value to a parser", () => {
    const story = lazyJsonObject('{"id":"a","headline":"Caf\\u00e9"}', { id: "a" });
    const text = toJsonText({ story, title: "Über — 日本 😀", lone: "\ud800" });
    expect(text).toMatch(/^[\x00-\x7e]+$/);
    expect(JSON.parse(text)).toEqual({ story: { id: "a", headline: "Café" }, title: "Über — 日本 😀", lone: "\ud800" });
    // Without kept texts it is JSON.stringify's own output.
    expect(toJsonText({ title: "Über" })).toBe('{"title":"Über"}');
  });

  it("escapes every character beyond ASCII, and nothing else", () => {
    const value = { s: 'plain "quoted" \\ tab\t', t: "é—“”日本😀\u2028\u007f", n: [1, null, true] };
    const text = asciiJson(JSON.stringify(value));
    expect(text).toMatch(/^[\x00-\x7e]+$/);
    expect(JSON.parse(text)).toEqual(value);
    expect(asciiJson('{"a":"b"}')).toBe('{"a":"b"}');
  });

  it("gives objects that an await does not parse (they are not thenables)", async () => {
    // An invalid text shows whether it was parsed: reading it throws.
    const unparsed = lazyJsonObject<{ id: string; headline: string }>("{not json", { id: "a" });
    const resolved = await (async () => unparsed)();
    expect(resolved.id).toBe("a");
    expect(() => resolved.headline).toThrow();
    // A text with a "then" key is parsed to answer it: a JSON value is never callable.
    const withThen = lazyJsonObject<{ id: string; then: number }>('{"id":"b","then":1}', { id: "b" });
    expect((await (async () => withThen)()).then).toBe(1);
  });
});
