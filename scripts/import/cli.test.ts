import { describe, expect, it } from "vitest";

import { countAction, formatReport, newReport } from "../../server/imports/report";
import { parseImportArgs } from "./cli";

describe("the import command line", () => {
  it("reads the source, the file and the options", () => {
    expect(parseImportArgs(["--from", "disqus", "export.xml", "--account", "gazette", "--dry-run"])).toEqual({
      command: {
        from: "disqus",
        file: "export.xml",
        account: "gazette",
        actor: undefined,
        dryRun: true,
        announce: false,
        collections: [],
      },
    });
    expect(parseImportArgs(["--from=wxr-comments", "site.xml", "--actor", " Owner@Paper.com "])).toEqual({
      command: {
        from: "wxr-comments",
        file: "site.xml",
        account: undefined,
        actor: "owner@paper.com",
        dryRun: false,
        announce: false,
        collections: [],
      },
    });
    const site = ["--from", "content-api", "https://old.example.com", "--site", "old", "--announce"];
    expect(parseImportArgs([...site, "--collections", " home, politics ,"])).toMatchObject({
      command: { site: "old", announce: true, collections: ["home", "politics"] },
    });
  });

  it("takes --collections for a content API only, as slugs", () => {
    expect(parseImportArgs(["--from", "wxr", "a.xml", "--collections", "home"])).toEqual({
      error: "--collections is for --from content-api (the collections of the site it reads).",
    });
    expect(parseImportArgs(["--from", "content-api", "https://a.example", "--collections", "home,a b"])).toEqual({
      error: "--collections takes collection slugs separated by commas: --collections home,politics.",
    });
    expect(parseImportArgs(["--from", "wxr", "a.xml", "--site", "two words"])).toEqual({
      error: "--site is a site's URL or a label of letters, digits, dots, dashes and slashes.",
    });
  });

  it("takes --ghost-url for a Ghost export only, as an http(s) address", () => {
    expect(
      parseImportArgs(["--from", "ghost", "g.json", "--ghost-url", " https://old.example.org/blog/ "]),
    ).toMatchObject({
      command: { ghostUrl: "https://old.example.org/blog" },
    });
    expect(parseImportArgs(["--from", "wxr", "a.xml", "--ghost-url", "https://old.example.org"])).toEqual({
      error: "--ghost-url is for --from ghost (the old Ghost site's address).",
    });
    for (const bad of [
      "old.example.org",
      "ftp://old.example.org",
      "https://old.example.org/?x=1",
      "javascript:alert(1)",
      'https://old.example.org/a"b',
    ]) {
      expect(parseImportArgs(["--from", "ghost", "g.json", "--ghost-url", bad]), bad).toEqual({
        error: "--ghost-url is the old Ghost site's address, https://… (and its path when Ghost was in a folder).",
      });
    }
  });

  it("says in one line what is wrong", () => {
    expect(parseImportArgs(["export.xml"])).toEqual({
      error: "Say which system the file comes from: --from <source>.",
    });
    // Every source is named, in the order they are listed.
    expect(parseImportArgs(["--from", "livefyre", "x.xml"])).toEqual({
      error: expect.stringMatching(
        /^Unknown source "livefyre": use one of disqus, wxr-comments(, [a-z0-9-]+)*\.$/,
      ) as string,
    });
    // Names of Object.prototype's members are not sources either.
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(parseImportArgs(["--from", name, "x.xml"])).toEqual({
        error: expect.stringMatching(new RegExp(`^Unknown source "${name}"`)) as string,
      });
    }
    expect(parseImportArgs(["--from", "disqus"])).toEqual({ error: "Give exactly one FILE to import." });
    expect(parseImportArgs(["--from", "disqus", "a.xml", "b.xml"])).toEqual({
      error: "Give exactly one FILE to import.",
    });
    expect("error" in parseImportArgs(["--from", "disqus", "a.xml", "--bogus"])).toBe(true);
  });
});

describe("the report", () => {
  it("prints counts per kind and action, and the first lines of each with their reasons", () => {
    const report = newReport({
      source: "disqus",
      kinds: ["page", "comment"],
      file: "export.xml",
      digest: "abc",
      account: "gazette",
      dryRun: true,
    });
    for (let i = 0; i < 25; i++) {
      countAction(report, "refuse", {
        kind: "comment",
        sourceId: String(i),
        label: `post ${i}`,
        reason: "its thread 9 is not in the file",
      });
    }
    countAction(report, "create", {
      kind: "page",
      sourceId: "1",
      label: "thread 1",
      reason: "page https://a.example/",
    });
    const text = formatReport(report);
    expect(text).toContain("Import from disqus: export.xml into account gazette (DRY RUN: nothing was changed)");
    expect(text).toMatch(/page\s+1\s+0\s+0\s+0\ncomment\s+0\s+0\s+0\s+25/);
    expect(text).toContain("Would refuse (25, first 20):\n  comment post 0: its thread 9 is not in the file");
    expect(text).not.toContain("post 20:");
    expect(text).toContain("Would create (1):\n  page thread 1: page https://a.example/");
  });
});
