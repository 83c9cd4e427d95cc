import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { resetEnvCache } from "../../env.js";
import { setCacheMode } from "../cache/process-cache";
import { responseCache } from "../cache/response-cache";
import { cachedRead, contentResponse, etagOf, keptSearch, matchesEtag, type CacheableAnswer } from "./content-cache";

describe("content responses", () => {
  it("carry an ETag of the body, cache headers and purge tags", async () => {
    const res = contentResponse(new Request("http://t/x"), { a: 1 }, { tags: ["s/1", "c/2", "s/1"], sMaxAge: 30 });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(etagOf('{"a":1}'));
    expect(res.headers.get("cache-control")).toContain("s-maxage=30");
    expect(res.headers.get("surrogate-key")).toBe("s/1 c/2");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ a: 1 });
  });

  it("answer 304 with no body when If-None-Match holds the ETag, weak or strong, in a list", async () => {
    const etag = etagOf('{"a":1}');
    for (const header of [etag, etag.replace("W/", ""), `"other", ${etag}`, "*"]) {
      const res = contentResponse(new Request("http://t/x", { headers: { "If-None-Match": header } }), { a: 1 });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe("");
    }
    expect(
      contentResponse(new Request("http://t/x", { headers: { "If-None-Match": '"stale"' } }), { a: 1 }).status,
    ).toBe(200);
  });

  it("compare ETags exactly", () => {
    expect(matchesEtag(null, 'W/"a"')).toBe(false);
    expect(matchesEtag('W/"ab"', 'W/"a"')).toBe(false);
  });

  it("key kept answers by the query less the parameters that change nothing, parsing it only when it names them", () => {
    const kept = (search: string) => keptSearch(new URL(`http://t/x${search}`), ["jwt"]);
    expect(kept("?page_ids=a,b&limit=3")).toBe("?page_ids=a,b&limit=3");
    expect(kept("?page_ids=a&jwt=eyJ.x.y")).toBe("?page_ids=a");
    expect(kept("?jwt=eyJ.x.y&page_ids=a")).toBe("?page_ids=a");
    expect(kept("?jwt=eyJ.x.y")).toBe("");
    expect(kept("?page_ids=a&jwt")).toBe("?page_ids=a");
    // Not the parameter: a longer name ending in it, or the name as a value.
    expect(kept("?xjwt=1")).toBe("?xjwt=1");
    expect(kept("?q=jwt")).toBe("?q=jwt");
    // Spelled encoded, it keeps a key of its own: a miss, never another reader's answer.
    expect(kept("?j%77t=eyJ&page_ids=a")).toBe("?j%77t=eyJ&page_ids=a");
  });
});

describe("cachedRead", () => {
  beforeEach(() => {
    process.env.RESPONSE_CACHE_MB = "8";
    resetEnvCache();
    setCacheMode("local");
    responseCache().clear();
  });
  afterEach(() => {
    setCacheMode("off");
    delete process.env.RESPONSE_CACHE_MB;
    resetEnvCache();
  });

  /** A build that waits until `release` is called, counting how often it ran. */
  function gatedBuild(body: unknown, tags = ["c/1"]) {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const counter = { builds: 0 };
    const build = async () => {
      counter.builds++;
      await gate;
      return { body, tags };
    };
    return { build, release: () => release(), counter };
  }
  const read = (build: () => Promise<CacheableAnswer>, path = "/api/v1/collections/home") => {
    const req = new Request(`http://t${path}`);
    return cachedRead(req, new URL(req.url), 1, build);
  };

  it("builds concurrent misses of one answer once; the others wait for it", async () => {
    const { build, release, counter } = gatedBuild({ items: [1] });
    const responses = Array.from({ length: 10 }, () => read(build));
    release();
    const answered = await Promise.all(responses);
    expect(counter.builds).toBe(1);
    expect(answered.map((r) => r.headers.get("x-cache")).sort()).toEqual([...Array<string>(9).fill("HIT"), "MISS"]);
    for (const response of answered) expect(await response.json()).toEqual({ items: [1] });
  });

  it("does not hand a build that started before a purge of the account to a request after it", async () => {
    const first = gatedBuild({ version: 1 });
    const before = read(first.build);
    // The change commits while the first build reads: the next request builds the new answer.
    responseCache().purge({ account: 1, tags: ["c/1"] });
    const second = gatedBuild({ version: 2 });
    const after = read(second.build);
    second.release();
    first.release();
    expect(await (await after).json()).toEqual({ version: 2 });
    expect(await (await before).json()).toEqual({ version: 1 });
    expect([first.counter.builds, second.counter.builds]).toEqual([1, 1]);
    // Neither the old answer nor a stale build is kept: the new one is.
    expect((await read(gatedBuild({ version: 3 }).build)).headers.get("x-cache")).toBe("HIT");
  });

  it("lets no request wait for an answer that is not kept, or a failed build", async () => {
    const failing = async (): Promise<CacheableAnswer> => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error("database down");
    };
    const { build, release, counter } = gatedBuild({ ok: true });
    const failed = read(failing);
    const retried = read(build);
    release();
    await expect(failed).rejects.toThrow("database down");
    expect((await retried).status).toBe(200);
    expect(counter.builds).toBe(1);

    const personal = gatedBuild({ mine: true }, []);
    const a = read(personal.build, "/api/v1/me");
    const b = read(personal.build, "/api/v1/me");
    personal.release();
    expect((await a).headers.get("x-cache")).toBe("BYPASS");
    expect((await b).headers.get("x-cache")).toBe("BYPASS");
    expect(personal.counter.builds).toBe(2);
  });
});
