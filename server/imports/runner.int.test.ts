/**
 * The runner whatever the source, with a source of its own: an item that fails mid-batch is
 * refused alone and the rest lands; a run stopped by its signal ends "interrupted" with what it
 * did kept, and the next run does the rest.
 */
import { describe, expect, it } from "vitest";

import { systemActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { importAccount } from "@/server/testing/imports";

import { runImport } from "./runner";
import type { ImportItem, ImportSource } from "./types";

type PageItem = ImportItem & { url: string };

/** Pages by URL; "boom" makes its write fail the way a broken row would. */
function pageSource(urls: string[]): ImportSource<PageItem> {
  return {
    name: "test-pages",
    description: "pages",
    kinds: ["page"],
    prepare: async () => ({
      digest: "d".repeat(64),
      itemCount: urls.length,
      problems: [],
      items: async function* () {
        for (const url of urls) yield { kind: "page", sourceId: url, label: url, url };
      },
      plan: async (db, item, ctx) => {
        const known = await ctx.lookup(db, { kind: "page", sourceId: item.sourceId });
        if (known) return { action: "skip", reason: "imported before" };
        return {
          action: "create",
          reason: item.url,
          remember: [{ kind: "page", sourceId: item.sourceId }],
          apply: async (tx) => {
            if (item.url.includes("boom")) await tx.$executeRawUnsafe("SELECT 1/0");
            const page = await tx.page.create({ data: { accountId: ctx.accountId, url: item.url } });
            await ctx.record(tx, { kind: "page", sourceId: item.sourceId, targetId: page.id, created: true });
          },
        };
      },
    }),
  };
}

const URLS = ["a", "b", "boom", "c", "d", "e"].map((p) => `https://news.example.com/${p}`);

describe("the import runner", () => {
  it("refuses the one item that fails and applies the others of its batch", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const report = await runImport(db, {
      source: pageSource(URLS),
      file: { path: "-", name: "pages" },
      accountId: account.id,
      actor: systemActor(account.id, "test"),
      dryRun: false,
      batchSize: 4,
    });
    expect(report.kinds.page).toEqual({ create: 5, update: 0, skip: 0, refuse: 1 });
    expect(report.lines.refuse).toEqual([
      expect.objectContaining({
        sourceId: URLS[2],
        reason: expect.stringMatching(/^failed: .*division by zero/) as string,
      }),
    ]);
    const pages = await db.page.findMany({ where: { accountId: account.id }, orderBy: { url: "asc" } });
    expect(pages.map((p) => p.url)).toEqual(URLS.filter((u) => !u.includes("boom")));
    expect(await db.importRecord.count({ where: { accountId: account.id } })).toBe(5);
  });

  it("stops between batches when told, keeps what it did, and the next run does the rest", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const urls = URLS.filter((u) => !u.includes("boom"));
    const stop = new AbortController();
    const args = {
      source: pageSource(urls),
      file: { path: "-", name: "pages" },
      accountId: account.id,
      actor: systemActor(account.id, "test"),
      dryRun: false,
      batchSize: 2,
    };
    const first = await runImport(db, { ...args, signal: stop.signal, onProgress: () => stop.abort() });
    expect(first.status).toBe("interrupted");
    expect(first.kinds.page!.create).toBe(2);
    expect(await db.importRun.findUniqueOrThrow({ where: { id: first.runId! } })).toMatchObject({
      status: "interrupted",
    });
    const second = await runImport(db, args);
    expect(second.kinds.page).toEqual({ create: 3, update: 0, skip: 2, refuse: 0 });
    expect(await db.page.count({ where: { accountId: account.id } })).toBe(5);
  });
});
