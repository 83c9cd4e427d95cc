/** Page ids and URL normalisation (server/engagement/pages.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { AppError } from "../errors";
import { decodePageId, encodePageId, normalizePageUrl, pageUrlForms } from "./pages";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("decodePageId", () => {
  const url = "https://news.example.com/politics/a-story?id=7";

  it("takes base64(encodeURIComponent(url)), the spec's form", () => {
    expect(decodePageId(b64(encodeURIComponent(url)), "params.encoded_url")).toBe(url);
    expect(decodePageId(encodePageId(url), "f")).toBe(url);
  });

  it("takes plain btoa(url), as real clients send it", () => {
    expect(decodePageId(btoa(url), "f")).toBe(url);
  });

  it("takes the URL-safe alphabet, and padding or none", () => {
    const weird = "https://news.example.com/?q=%3F%3F%3F~~~>>>";
    const std = b64(encodeURIComponent(weird));
    expect(std).toMatch(/[+/=]/);
    const expected = normalizePageUrl(weird, "f");
    expect(decodePageId(std, "f")).toBe(expected);
    expect(decodePageId(std.replace(/=+$/, ""), "f")).toBe(expected);
    expect(decodePageId(b64url(encodeURIComponent(weird)), "f")).toBe(expected);
  });

  it("decodes unicode URLs sent either way to the same page", () => {
    const unicode = "https://Bücher.example/ünïcode/記事?q=ü";
    const fromComponent = decodePageId(b64(encodeURIComponent(unicode)), "f");
    expect(fromComponent).toBe("https://xn--bcher-kva.example/%C3%BCn%C3%AFcode/%E8%A8%98%E4%BA%8B?q=%C3%BC");
    // location.href is already percent-encoded, so btoa works on it.
    expect(decodePageId(btoa(fromComponent), "f")).toBe(fromComponent);
  });

  it("refuses what is not strict base64, naming the field", () => {
    const good = b64(encodeURIComponent(url));
    for (const id of [
      "",
      "not base64!",
      good + "=", // wrong padding
      good.slice(0, -1) + "==", // padding in the wrong place
      "a",
      "QQ", // "A": decodes, but is no URL
      "QR==", // stray bits in the last character
      good.replace(/\+/g, "-").replace(/=/g, "") + "_/", // both alphabets
      " " + good,
      good + "\n",
      "x".repeat(9000),
    ]) {
      const error = refusal(() => decodePageId(id, "params.encoded_url"));
      expect(error.code, id).toBe("BAD_REQUEST");
      expect(error.details?.[0]?.field).toBe("params.encoded_url");
    }
  });

  it("refuses bytes that are not UTF-8 and broken percent-encoding", () => {
    expect(
      refusal(() => decodePageId(Buffer.from([0xff, 0xfe, 0x41]).toString("base64"), "f")).details?.[0]?.issue,
    ).toMatch(/UTF-8/);
    expect(refusal(() => decodePageId(b64("https%3A%2F%2Fx.example%2F%E0%A4%A"), "f")).details?.[0]?.issue).toMatch(
      /percent-encoding/,
    );
  });

  it("refuses javascript:, data:, other schemes, relative URLs and credentials", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)//https://news.example.com/",
      "data:text/html,<script>alert(1)</script>",
      "ftp://news.example.com/a",
      "mailto:a@example.com",
      "/politics/a-story",
      "//news.example.com/a",
      "news.example.com/a",
      "https://user:pw@news.example.com/a",
      "https:///",
      "https://news.example.com/a b",
      "https://news.example.com/\ta",
    ]) {
      for (const id of [b64(encodeURIComponent(bad)), b64(bad)]) {
        expect(refusal(() => decodePageId(id, "f")).code, bad).toBe("BAD_REQUEST");
      }
    }
  });
});

describe("normalizePageUrl", () => {
  const n = (url: string) => normalizePageUrl(url, "f");

  it("lower-cases scheme and host, drops default ports, trailing host dots and the fragment", () => {
    expect(n("HTTPS://News.Example.COM:443/Politics/A-Story#comments")).toBe(
      "https://news.example.com/Politics/A-Story",
    );
    expect(n("http://news.example.com:80/a")).toBe("http://news.example.com/a");
    expect(n("http://news.example.com:8080/a")).toBe("http://news.example.com:8080/a");
    expect(n("https://news.example.com./a")).toBe("https://news.example.com/a");
    expect(n("https://news.example.com")).toBe("https://news.example.com/");
  });

  it("drops tracking parameters in any case and sorts the rest", () => {
    expect(
      n("https://news.example.com/a?utm_source=x&b=2&UTM_Medium=y&fbclid=1&gclid=2&mc_cid=3&mc_eid=4&a=1&_ga=5#x"),
    ).toBe("https://news.example.com/a?a=1&b=2");
    expect(n("https://news.example.com/a?utm_source=x")).toBe("https://news.example.com/a");
    expect(n("https://news.example.com/a?b=2&a=2&a=1")).toBe("https://news.example.com/a?a=1&a=2&b=2");
    expect(n("https://news.example.com/a?b=2&a=1")).toBe(n("https://news.example.com/a?a=1&b=2"));
  });

  it("drops a bare ? or #, and a ? that is part of the fragment", () => {
    for (const url of ["/a?", "/a#", "/a?#", "/a#x?y", "/a?#x?y", "/a?utm_source=x#y?z"]) {
      expect(n(`https://news.example.com${url}`), url).toBe("https://news.example.com/a");
    }
    expect(n("https://news.example.com/a?b=1#x?a=2")).toBe("https://news.example.com/a?b=1");
  });

  it("keeps the path as it is (case, trailing slash), resolving dot segments", () => {
    expect(n("https://news.example.com/A/")).not.toBe(n("https://news.example.com/a/"));
    expect(n("https://news.example.com/a/")).not.toBe(n("https://news.example.com/a"));
    expect(n("https://news.example.com/x/../a")).toBe("https://news.example.com/a");
  });

  it("refuses URLs too long to be a page", () => {
    expect(refusal(() => n(`https://news.example.com/${"a".repeat(2100)}`)).code).toBe("BAD_REQUEST");
  });
});

describe("pageUrlForms", () => {
  const label = fc.stringMatching(/^[a-z0-9]{1,10}$/);
  const host = fc.tuple(label, label).map(([a, b]) => `${a}.${b}.example`);
  const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((s) => s !== "." && s !== "..");
  const path = fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join("/")}`);
  const query = fc.array(fc.tuple(fc.constantFrom("id", "page", "q"), label), { maxLength: 2 });
  const canonical = fc
    .tuple(host, path, query)
    .map(([h, p, q]) =>
      normalizePageUrl(`https://${h}${p}${q.length ? `?${new URLSearchParams(q).toString()}` : ""}`, "f"),
    );

  it("reaches the page from any way of writing its URL", () => {
    const written = fc.record({
      scheme: fc.constantFrom("http", "https", "HTTPS"),
      www: fc.boolean(),
      slash: fc.boolean(),
      tracking: fc.subarray(["utm_source=news", "fbclid=abc", "gclid=1", "UTM_Campaign=x"]),
      fragment: fc.option(label, { nil: undefined }),
      upperHost: fc.boolean(),
    });
    fc.assert(
      fc.property(canonical, written, (url, w) => {
        const parsed = new URL(url);
        const h = `${w.www ? "www." : ""}${parsed.hostname}`;
        const p = w.slash && parsed.pathname !== "/" ? `${parsed.pathname}/` : parsed.pathname;
        const params = [...parsed.searchParams]
          .map(([k, v]) => `${k}=${v}`)
          .concat(w.tracking)
          .reverse();
        const text = `${w.scheme}://${w.upperHost ? h.toUpperCase() : h}${p}${params.length ? `?${params.join("&")}` : ""}${w.fragment ? `#${w.fragment}` : ""}`;
        expect(pageUrlForms(normalizePageUrl(text, "f"))).toContain(url);
      }),
    );
  });

  it("is symmetric, starts with the URL itself and never changes the path's words or the query", () => {
    fc.assert(
      fc.property(canonical, (url) => {
        const forms = pageUrlForms(url);
        expect(forms[0]).toBe(url);
        expect(new Set(forms).size).toBe(forms.length);
        const key = (u: string) => {
          const x = new URL(u);
          return `${x.hostname.replace(/^www\./, "")}${x.pathname.replace(/\/+$/, "")}${x.search}`;
        };
        for (const form of forms) {
          expect(pageUrlForms(form)).toContain(url);
          expect(key(form)).toBe(key(url));
        }
      }),
    );
  });

  it("keeps an IP host and a port as they are", () => {
    expect(pageUrlForms("http://127.0.0.1:8080/a")).toEqual([
      "http://127.0.0.1:8080/a",
      "https://127.0.0.1:8080/a",
      "https://127.0.0.1:8080/a/",
      "http://127.0.0.1:8080/a/",
    ]);
    expect(pageUrlForms("https://news.example.com/")).toEqual([
      "https://news.example.com/",
      "https://www.news.example.com/",
      "http://news.example.com/",
      "http://www.news.example.com/",
    ]);
  });
});
