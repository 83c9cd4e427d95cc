import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";

import { attrs, cdata, element, escapeXml, rfc822, stripIllegalXmlChars } from "./xml";

const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", htmlEntities: true }).parse(xml) as Record<
    string,
    unknown
  >;

describe("escapeXml", () => {
  it("escapes the five markup characters", () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
    );
  });

  it("drops characters XML 1.0 forbids and keeps tabs, newlines and astral characters", () => {
    const nasty = "a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFF\tg\nh\ri😀\uD800j";
    expect(stripIllegalXmlChars(nasty)).toBe("abcdef\tg\nh\ri😀j");
    expect(escapeXml(nasty)).toBe("abcdef\tg\nh\ri😀j");
  });

  it("turns null and undefined into an empty string and numbers into text", () => {
    expect(escapeXml(null)).toBe("");
    expect(escapeXml(undefined)).toBe("");
    expect(escapeXml(42)).toBe("42");
  });

  it("round-trips hostile text and attributes through a real XML parser", () => {
    const text = `Fish & chips <b>"quoted"</b> 'single' ]]> \u0001 done`;
    const xml = `<root>${element("t", text, { title: text })}</root>`;
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parse(xml) as { root: { t: { "#text": string; "@title": string } } };
    const expected = text.replace("\u0001", "");
    expect(parsed.root.t["#text"]).toBe(expected.trim());
    expect(parsed.root.t["@title"]).toBe(expected);
  });
});

describe("cdata", () => {
  it("splits ]]> so the section cannot be closed early, and the parser joins it back", () => {
    const html = "<p>a ]]> b ]]]]> c</p><script>x</script>";
    const wrapped = cdata(html);
    expect(wrapped.match(/<!\[CDATA\[/g)?.length).toBe(3);
    const xml = `<root><c>${wrapped}</c></root>`;
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser().parse(xml) as { root: { c: string } };
    expect(parsed.root.c).toBe(html);
  });

  it("strips control characters inside the section too", () => {
    expect(cdata("a\u0007b")).toBe("<![CDATA[ab]]>");
  });
});

describe("attrs and dates", () => {
  it("skips null, undefined and false, writes true as a bare attribute", () => {
    expect(attrs({ a: "1", b: null, c: undefined, d: false, e: true, f: 2 })).toBe(' a="1" e f="2"');
  });

  it("formats RFC 822 dates in GMT", () => {
    expect(rfc822(new Date(Date.UTC(2025, 5, 3, 9, 39, 21)))).toBe("Tue, 03 Jun 2025 09:39:21 GMT");
  });
});
