/**
 * The widget scripts: the served loader's globals and queue, the composer's ops, and the browser
 * captcha solver against altcha-lib's own verification. The bundle's size budget and freshness
 * are checked with the other generated modules' (scripts/build-bundles.test.ts).
 */
import vm from "node:vm";

import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it } from "vitest";

import { LOADER_JS } from "../server/widgets/bundles.generated";
import { solveRange } from "./src/captcha";
import { opsToText, pageId, readableOn, textToOps, whiteIsTooLight } from "./src/ops";

describe("the loader bundle", () => {
  it("defines no global but talktype and reads no storage or cookies of the host page", () => {
    expect(LOADER_JS).not.toMatch(/document\.cookie|localStorage|sessionStorage/);
    const globals: string[] = [];
    const window: Record<string, unknown> = { talktype: undefined, addEventListener: () => {} };
    const proxy = new Proxy(window, {
      set(target, key, value) {
        globals.push(String(key));
        target[key as string] = value;
        return true;
      },
    });
    vm.runInNewContext(`(function (window, document, location) {${LOADER_JS}})(w, d, l)`, {
      w: proxy,
      d: { currentScript: { src: "https://masthead.example/widgets/v1/loader.js" } },
      l: { href: "https://news.example.com/a", origin: "https://news.example.com" },
    });
    expect(globals).toEqual(["talktype"]);
    const talktype = window.talktype as Record<string, unknown> & ((f: () => void) => void);
    expect(talktype.loaded).toBe(true);
    for (const method of [
      "commentWidgetIframe",
      "feedWidgetIframe",
      "contributionWidgetIframe",
      "pageReactionsIframe",
      "updateUGCTopic",
      "formLoginIframe",
      "accountUserLogin",
      "accountUserLogout",
      "pageMetadataSetter",
      "toggleButton",
      "slideButton",
    ]) {
      expect(typeof talktype[method], method).toBe("function");
    }
  });

  it("drains the queue the page's stub built, in order, then runs callbacks at once", () => {
    const ran: string[] = [];
    const stub = Object.assign(() => {}, {
      q: [[() => ran.push("first")], [() => ran.push("second")]] as unknown[][],
    });
    const window: Record<string, unknown> = { talktype: stub, addEventListener: () => {} };
    vm.runInNewContext(`(function (window, document, location) {${LOADER_JS}})(w, d, l)`, {
      w: window,
      d: { currentScript: null },
      l: { href: "https://news.example.com/a", origin: "https://news.example.com" },
    });
    expect(ran).toEqual(["first", "second"]);
    (window.talktype as (f: () => void) => void)(() => ran.push("third"));
    expect(ran).toEqual(["first", "second", "third"]);
    expect((window.talktype as { q: unknown[] }).q).toEqual([]);
  });
});

describe("composer ops", () => {
  const ada = { id: "7", name: "Ada Lovelace", slug: "ada", avatar: null };

  it("turns @mentions of chosen readers, URLs and images into the API's ops", () => {
    expect(
      textToOps("Hi @Ada Lovelace, see https://example.com/x. Bye", [ada], ["https://m.example/images/a.png"]),
    ).toEqual([
      { insert: "Hi " },
      {
        attributes: {
          mention: { name: "Ada Lovelace", slug: "ada", avatar: "", id: "7", target: "_blank", class: "mention" },
          link: "ada",
        },
        insert: { mentions: true },
      },
      { insert: ", see " },
      { attributes: { link: "https://example.com/x" }, insert: "https://example.com/x" },
      { insert: ". Bye" },
      { insert: { image: "https://m.example/images/a.png" } },
    ]);
  });

  it("leaves an @name nobody chose as text, and whitespace alone as nothing", () => {
    expect(textToOps("@Bob hi", [ada], [])).toEqual([{ insert: "@Bob hi" }]);
    expect(textToOps("  \n ", [], [])).toEqual([]);
    expect(textToOps("javascript:alert(1)", [], [])).toEqual([{ insert: "javascript:alert(1)" }]);
  });

  it("reads ops back for editing", () => {
    const mentions: (typeof ada)[] = [];
    const images: string[] = [];
    const ops = textToOps("Hi @Ada Lovelace", [ada], ["https://m.example/images/a.png"]);
    expect(opsToText([...ops, { insert: "\n" }], mentions, images)).toBe("Hi @Ada Lovelace");
    expect(mentions.map((m) => m.id)).toEqual(["7"]);
    expect(images).toEqual(["https://m.example/images/a.png"]);
  });

  it("encodes page ids the API decodes (URL-safe base64 of encodeURIComponent)", () => {
    const url = "https://news.example.com/a?b=ü&c=1";
    const id = pageId(url);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeURIComponent(Buffer.from(id, "base64url").toString("utf8"))).toBe(url);
  });
});

describe("the captcha solver", () => {
  it("finds the solution altcha-lib verifies (WebCrypto PBKDF2), and gives up at its deadline", async () => {
    const secrets = { hmacSignatureSecret: "s".repeat(32), hmacKeySignatureSecret: "k".repeat(32) };
    const challenge = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: 50,
      counter: randomInt(60, 20),
      deriveKey,
      expiresAt: new Date(Date.now() + 60_000),
      ...secrets,
    });
    const deadline = Date.now() + 20_000;
    // The worker whose counters hold the answer finds it; the frame stops the others.
    const solution = (await solveRange(challenge.parameters, 0, 1, deadline))!;
    expect(solution).not.toBeNull();
    const result = await verifySolution({ challenge, solution, deriveKey, ...secrets });
    expect(result.verified).toBe(true);
    const other = await solveRange(challenge.parameters, solution.counter + 1, 2, Date.now() - 1);
    expect(other).toBeNull();
  }, 30_000);
});

describe("text on the primary colour", () => {
  it("is dark where white falls under 4.5:1, white otherwise", () => {
    expect(whiteIsTooLight("#3a9fdd")).toBe(true); // Metype's default: white is 2.9:1
    expect(whiteIsTooLight("#fff")).toBe(true);
    expect(whiteIsTooLight("#aa3300")).toBe(false);
    expect(whiteIsTooLight("#000000")).toBe(false);
    expect(whiteIsTooLight("rebeccapurple")).toBe(false); // not parsed: white stays
  });
});

describe("text in the primary colour", () => {
  it("is the colour where it reads at 4.5:1 on the background, else the nearest shade that does", () => {
    expect(readableOn("#3a9fdd", "#fff")).toBe("#2c77a6"); // the default primary: 2.9:1 on white, darkened
    expect(readableOn("#aa3300", "#ffffff")).toBe("#aa3300"); // 6.6:1 already
    expect(readableOn("#3a9fdd", "#000")).toBe("#3a9fdd"); // 7.2:1 on black
    expect(readableOn("#1a3a5c", "#111111")).not.toBe("#1a3a5c"); // too dark on a dark page: lightened
    expect(whiteIsTooLight(readableOn("#1a3a5c", "#111111"))).toBe(true);
    expect(readableOn("rebeccapurple", "#fff")).toBe("rebeccapurple"); // not parsed: as it is
  });

  it("is measured against white when the background is not a colour of its own (the loader's 'transparent')", () => {
    // The loader passes bg_color=transparent by default: the default primary must still be darkened.
    for (const background of ["transparent", "", "inherit", "rgb(255, 255, 255)"])
      expect(readableOn("#3a9fdd", background), background).toBe("#2c77a6");
  });
});
