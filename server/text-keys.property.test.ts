/**
 * Text as keys, across the pipelines that read reader and staff text: slugs, the search query,
 * query strings, CSV headers of an import, metadata keys, entity names, sign-in error codes, and the
 * dashboard's queue filters. Every English word, every Object.prototype and Array.prototype member's
 * name and generated text in any script: none throws, none answers a prototype's member, and a
 * name written as a key comes back as an own key.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

import { signInErrorMessage } from "./auth/sign-in.schema";
import { parseQueueSearchParams } from "./engagement/moderation/queue/queue-filters.schema";
import { searchParamsToObject } from "./http/request-body";
import { decodeEntities } from "./imports/html-to-ops";
import { indexCsv, type CsvRow } from "./imports/readers/csv";
import { importSourceNamed } from "./imports/sources";
import { nullPrototypeRecord, ownValue } from "./own-keys";
import { deepMerge } from "./publishing/config-view";
import { ZSearchQuery } from "./publishing/content.schema";
import { cleanMetadataOrThrow } from "./publishing/editorial/sanitize";
import { escapeXml } from "./publishing/feeds/xml";
import { htmlToText, projectFields } from "./publishing/story-view";
import { englishWords, inBatches, PROTOTYPE_NAMES, prototypeName, readerText } from "./testing/hostile-text";
import { isSlug, slugify } from "./text/slug";
import { webhookEventDescription } from "./webhooks/events.schema";

const NAMES = prototypeName;
const KEY = fc.oneof(NAMES, readerText(20));

describe("own-keys", () => {
  it("reads own keys only and writes any key as an own key", () => {
    fc.assert(
      fc.property(KEY, fc.string(), (key, value) => {
        expect(ownValue({ a: "x" }, key)).toBe(key === "a" ? "x" : undefined);
        const record = nullPrototypeRecord([[key, value]]);
        expect(Object.hasOwn(record, key) && record[key]).toBe(value);
        expect(JSON.parse(JSON.stringify(record))).toEqual(JSON.parse(JSON.stringify({ [key]: value })));
      }),
      { numRuns: 300 },
    );
  });
});

describe("slugs", () => {
  it("are made of every English word, prototype name and generated text, and are slugs", () => {
    // English words are ASCII slugs; any text is a slug of text/slug.ts's rule (or nothing).
    const slugish = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/;
    const slugOrNothing = (slug: string, max = 100) => slug === "" || isSlug(slug, max);
    for (const batch of inBatches(englishWords(), 2_000)) expect(slugify(batch, 100_000)).toMatch(slugish);
    for (const name of PROTOTYPE_NAMES) expect(slugify(name)).toMatch(slugish);
    fc.assert(
      fc.property(readerText(), (text) => {
        expect(slugOrNothing(slugify(text)), text).toBe(true);
        expect(slugify(text).length).toBeLessThanOrEqual(100);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the search query and query strings", () => {
  it("parse every prototype name as a parameter and as a value, into own keys", () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const search of [`${name}=1`, `${name}[]=1&${name}[]=2`, `q=${encodeURIComponent(name)}&${name}=x`]) {
        const query = searchParamsToObject(new URLSearchParams(search));
        expect(Object.keys(query)).toContain(search.startsWith("q=") ? "q" : name);
        if (!search.startsWith("q=")) expect(Object.hasOwn(query, name)).toBe(true);
        const parsed = ZSearchQuery.safeParse(query);
        expect(parsed.success || parsed.error.issues.length > 0).toBe(true);
      }
    }
    expect(searchParamsToObject(new URLSearchParams("constructor=a&constructor=b")).constructor).toEqual(["a", "b"]);
  });

  it("take any text as the search words (every English word included) without throwing", () => {
    for (const batch of inBatches(englishWords(), 60)) {
      const q = batch.slice(0, 500);
      const parsed = ZSearchQuery.safeParse(searchParamsToObject(new URLSearchParams({ q })));
      expect(parsed.success).toBe(true);
    }
    fc.assert(
      fc.property(fc.array(fc.tuple(KEY, readerText(40)), { maxLength: 6 }), (pairs) => {
        const params = new URLSearchParams(pairs);
        const query = searchParamsToObject(params);
        for (const key of params.keys())
          expect(Object.hasOwn(query, key.endsWith("[]") ? key.slice(0, -2) : key)).toBe(true);
        ZSearchQuery.safeParse(query);
        parseQueueSearchParams(params);
        parseQueueSearchParams(Object.fromEntries(params));
      }),
      { numRuns: 300 },
    );
  });
});

describe("an import's CSV", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "text-keys-csv-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  /** A header as the reader finds it: written as UTF-8 (a lone surrogate becomes U+FFFD), trimmed, lower-cased. */
  const column = (header: string) => Buffer.from(header).toString().trim().toLowerCase();

  it("reads headers named after prototype members as columns of their own", async () => {
    const names = PROTOTYPE_NAMES.filter((n) => n !== "email");
    const file = path.join(dir, "members.csv");
    fs.writeFileSync(
      file,
      `email,${names.map(quote).join(",")}\nreader@example.com,${names.map((n) => quote(`${n}!`)).join(",")}\n`,
    );
    const rows: CsvRow[] = [];
    const index = await indexCsv(
      { path: file, name: "members.csv" },
      { title: "A test", required: ["email"], known: ["email"] },
      (row) => rows.push(row),
    );
    expect(index.columns).toEqual(["email", ...names.map((n) => n.toLowerCase())]);
    expect(rows).toHaveLength(1);
    for (const name of names) expect(Object.hasOwn(rows[0]!.values, name.toLowerCase())).toBe(true);
    expect(rows[0]!.values.constructor).toBe("constructor!");
    expect(rows[0]!.values.__proto__).toBe("__proto__!");
  });

  it("reads generated headers and values without throwing", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          KEY.filter((k) => column(k) !== "" && column(k) !== "email"),
          { maxLength: 5, selector: column },
        ),
        readerText(60),
        async (headers, value) => {
          const file = path.join(dir, `g${n++}.csv`);
          fs.writeFileSync(
            file,
            `email,${headers.map(quote).join(",")}\na@example.com,${headers.map(() => quote(value)).join(",")}\n`,
          );
          const rows: CsvRow[] = [];
          const read = indexCsv(
            { path: file, name: "g.csv" },
            { title: "A test", required: ["email"], known: ["email"] },
            (row) => rows.push(row),
          );
          // A NUL character is never text of a UTF-8 CSV (csv.ts): the file is refused whole, saying so.
          // (The value is written once per header: with none, it is not in the file.)
          if ([...headers, ...(headers.length > 0 ? [value] : [])].some((text) => text.includes("\u0000"))) {
            await expect(read).rejects.toThrow(/holds a NUL character/);
            return;
          }
          await read;
          for (const header of headers) expect(Object.hasOwn(rows[0]!.values, column(header))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("names no source after a prototype member", () => {
    for (const name of PROTOTYPE_NAMES) expect(importSourceNamed(name)).toBeUndefined();
    expect(importSourceNamed("disqus")?.description).toMatch(/Disqus/);
  });
});

describe("metadata, entities and names looked up in tables", () => {
  it("keeps metadata keys named after prototype members as keys", () => {
    const metadata = JSON.parse(
      `{${PROTOTYPE_NAMES.map((n) => `${JSON.stringify(n)}: ${JSON.stringify(`https://example.com/${n}`)}`).join(",")}}`,
    ) as Record<string, unknown>;
    const cleaned = cleanMetadataOrThrow(metadata, "metadata");
    expect(Object.keys(cleaned).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    expect(Object.getPrototypeOf(cleaned)).not.toBe(Array.prototype);
    const merged = deepMerge({ a: { b: 1 } }, metadata);
    expect(Object.keys(merged).sort()).toEqual(["a", ...PROTOTYPE_NAMES].sort());
    const projected = projectFields({ id: "1", headline: "h" }, [...PROTOTYPE_NAMES]);
    expect(Object.keys(projected)).toEqual(["id"]);
  });

  it("answers text, never a prototype's member, for any name", () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(typeof signInErrorMessage(name)).toBe("string");
      expect(webhookEventDescription(name)).toBe("");
      expect(decodeEntities(`&${name};`)).toBe(`&${name};`);
      expect(htmlToText(`a &${name}; b`)).toMatch(/^a &\S+; b$/);
    }
    fc.assert(
      fc.property(readerText(), (text) => {
        expect(typeof escapeXml(text)).toBe("string");
        expect(typeof decodeEntities(text)).toBe("string");
        expect(typeof htmlToText(text)).toBe("string");
      }),
      { numRuns: 300 },
    );
  });
});
