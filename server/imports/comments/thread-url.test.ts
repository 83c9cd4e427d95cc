/** Thread links as every comment source places them (thread-url.ts), and what threads name (story-match.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { threadPostIds } from "./story-match";
import { isThreadNoiseParam, threadPageUrl, threadUrlKey } from "./thread-url";

const publisher = { siteUrl: "https://www.news.example.com" };

const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const path = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => `/${parts.join("/")}`);
const meaningful = fc.array(
  fc.tuple(fc.constantFrom("p", "page_id", "id", "lang", "q"), fc.stringMatching(/^[a-z0-9]{1,6}$/)),
  { maxLength: 3 },
);
const noise = fc.array(
  fc.tuple(
    fc.constantFrom(
      "utm_source",
      "UTM_Campaign",
      "utm_medium",
      "fbclid",
      "gclid",
      "mc_cid",
      "mc_eid",
      "ref",
      "amp",
      "replytocom",
      "pk_campaign",
    ),
    fc.stringMatching(/^[a-z0-9]{0,6}$/),
  ),
  { maxLength: 4 },
);
/** One page's link written any way: scheme, "www.", host case, default port, trailing slash, fragment, tracking. */
const spelling = fc.record({
  https: fc.boolean(),
  www: fc.boolean(),
  upper: fc.boolean(),
  port: fc.boolean(),
  slash: fc.boolean(),
  fragment: fc.option(fc.stringMatching(/^[a-z0-9-]{0,8}$/), { nil: undefined }),
  noise,
  order: fc.boolean(),
});
type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never;

function write(page: { path: string; params: [string, string][] }, s: Spelling): string {
  const host = `${s.www ? "www." : ""}${s.upper ? "News.Example.COM" : "news.example.com"}`;
  const port = s.port ? (s.https ? ":443" : ":80") : "";
  const p = page.path === "/" ? "/" : `${page.path}${s.slash ? "/" : ""}`;
  const params = s.order ? [...s.noise, ...page.params] : [...page.params, ...s.noise];
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : "";
  return `${s.https ? "https" : "http"}://${host}${port}${p}${query}${s.fragment !== undefined ? `#${s.fragment}` : ""}`;
}

describe("threadUrlKey", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(path, meaningful, spelling, (p, params, s) => {
        const key = threadUrlKey(write({ path: p, params }, s));
        expect(threadUrlKey(key)).toBe(key);
      }),
    );
  });

  it("gives one key to every spelling of one page: tracking parameters never matter", () => {
    fc.assert(
      fc.property(path, meaningful, spelling, spelling, (p, params, a, b) => {
        const page = { path: p, params };
        expect(threadUrlKey(write(page, a))).toBe(threadUrlKey(write(page, b)));
      }),
    );
  });

  it("keeps the parameters that name a page, so two pages keep two keys", () => {
    expect(threadUrlKey("https://news.example.com/?p=123")).not.toBe(threadUrlKey("https://news.example.com/?p=124"));
    expect(threadUrlKey("http://www.news.example.com/?utm_source=x&p=123#c")).toBe("https://news.example.com/?p=123");
    expect(threadUrlKey("https://news.example.com/a")).not.toBe(threadUrlKey("https://news.example.com/b"));
    expect(threadUrlKey("https://news.example.com/A")).not.toBe(threadUrlKey("https://news.example.com/a"));
  });

  it("takes a directory's index file for the directory", () => {
    expect(threadUrlKey("http://localhost:4000/blog/2013/02/12/redacted/index.html")).toBe(
      threadUrlKey("http://localhost:4000/blog/2013/02/12/redacted/"),
    );
    expect(threadUrlKey("https://news.example.com/index.php?p=3")).toBe("https://news.example.com/?p=3");
    expect(threadUrlKey("https://news.example.com/about/index.html.bak")).toBe(
      "https://news.example.com/about/index.html.bak",
    );
  });

  it("refuses what is no page URL", () => {
    expect(() => threadUrlKey("ftp://news.example.com/a")).toThrow(/not valid/);
    expect(() => threadUrlKey("/2019/01/hello")).toThrow(/not valid/);
  });
});

describe("threadPageUrl", () => {
  it("writes a link of the publication's host in the site URL's scheme and host, without tracking", () => {
    expect(threadPageUrl("http://news.example.com:80/about-us/?ref=footer&utm_medium=email#top", publisher)).toBe(
      "https://www.news.example.com/about-us/",
    );
    expect(threadPageUrl("http://other.example.org/x?amp=1&id=2", publisher)).toBe("http://other.example.org/x?id=2");
  });

  it("has the key of the link it comes from", () => {
    fc.assert(
      fc.property(path, meaningful, spelling, (p, params, s) => {
        const link = write({ path: p, params }, s);
        expect(threadUrlKey(threadPageUrl(link, publisher))).toBe(threadUrlKey(link));
      }),
    );
  });
});

describe("isThreadNoiseParam", () => {
  it("knows the tracking parameters in any case, and not the meaningful ones", () => {
    for (const name of ["utm_source", "UTM_TERM", "fbclid", "gclid", "mc_cid", "mc_eid", "ref", "amp", "replytocom"])
      expect(isThreadNoiseParam(name)).toBe(true);
    for (const name of ["p", "page_id", "id", "q", "lang", "page"]) expect(isThreadNoiseParam(name)).toBe(false);
  });
});

describe("threadPostIds", () => {
  it("reads the Disqus WordPress plugin's identifier, '<post id> <guid>', and the guid's own ?p=", () => {
    expect(threadPostIds({ identifier: "123 http://site.example/?p=123", url: null })).toEqual({
      ids: ["123"],
      sites: ["site.example"],
    });
    expect(threadPostIds({ identifier: "45 https://www.blog.example/blog/?p=9", url: null })).toEqual({
      ids: ["45", "9"],
      sites: ["blog.example/blog"],
    });
    expect(threadPostIds({ identifier: "77", url: null })).toEqual({ ids: ["77"], sites: [] });
  });

  it("falls back on a ?p= or ?page_id= link, and names nothing otherwise", () => {
    expect(threadPostIds({ identifier: null, url: "https://site.example/?p=12&utm_source=x" })).toEqual({
      ids: ["12"],
      sites: ["site.example"],
    });
    expect(threadPostIds({ identifier: "some-id", url: "https://site.example/?page_id=8" }).ids).toEqual(["8"]);
    expect(threadPostIds({ identifier: "wp-101", url: "https://site.example/2019/hello/" }).ids).toEqual([]);
  });
});
