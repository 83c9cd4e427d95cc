/**
 * Raw SQL takes one form in served code: the tagged `$queryRaw` / `$executeRaw` (values bound as
 * parameters, names through server/db/sql.ts). The string forms `$queryRawUnsafe` and
 * `$executeRawUnsafe` stay where SQL is the subject itself: server/db (migrations, backups, the
 * adapters), server/jobs (the engine's claim and finish statements), and the tooling that is
 * never served: tests, server/testing, server/seed (bulk demo data) and scripts/.
 */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { PROJECT_ROOT, projectSourceFiles } from "./lib/source-files";

const ALLOWED = [/^server\/(?:db|jobs|testing|seed)\//, /^scripts\//, /\.test\.tsx?$/];
const UNSAFE = /\$(?:queryRawUnsafe|executeRawUnsafe)\b/;

describe("raw SQL", () => {
  it("uses the string forms only in server/db, server/jobs and tooling", () => {
    const found = projectSourceFiles()
      .map((file) => path.relative(PROJECT_ROOT, file))
      .filter((file) => !ALLOWED.some((allowed) => allowed.test(file)))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(PROJECT_ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, index) => (UNSAFE.test(line) ? [`${file}:${index + 1}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
