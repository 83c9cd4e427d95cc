/**
 * node --conditions=react-server --import tsx scripts/import/bench-import.ts [--comments 200000] [--threads 4000] [--batch 100]
 *
 * How fast, and in how much memory, a large Disqus export imports (docs/performance.md,
 * "Imports"): writes a generated export (a third of the posts replies, some listed before the post
 * they answer, 5,000 authors), then runs a dry run and a real run of it into a fresh account,
 * sampling the process's resident size (bench-measure.ts). Database: DATABASE_URL (a schema of its
 * own, dropped at the end) or an in-memory PGlite (whose data then lives in this process and counts
 * in its memory).
 */
import { parseArgs } from "node:util";

import { DEFAULT_BATCH_SIZE } from "../../server/imports/runner";
import { IMPORT_SOURCES } from "../../server/imports/sources";
import { measureImport, writeStream } from "./bench-measure";

const { values } = parseArgs({
  options: {
    comments: { type: "string", default: "200000" },
    threads: { type: "string", default: "4000" },
    batch: { type: "string", default: String(DEFAULT_BATCH_SIZE) },
  },
});
const COMMENTS = Number(values.comments);
const THREADS = Number(values.threads);
/** Readers: 5,000, or one per 20 comments for smaller files (each comments 40 times in the large one). */
const AUTHORS = Math.min(5000, Math.max(1, Math.floor(COMMENTS / 20)));
if (THREADS % 3 === 0) throw new Error("--threads must not be a multiple of 3");

/** A Disqus export of COMMENTS posts over THREADS threads, written in a stream. */
async function writeExport(file: string): Promise<void> {
  await writeStream(file, async (write) => {
    await write(
      '<?xml version="1.0" encoding="utf-8"?>\n<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">\n',
    );
    for (let t = 0; t < THREADS; t++) {
      await write(
        `<thread dsq:id="${1_000_000 + t}"><id/><forum>bench</forum><link>https://news.example.com/2020/story-${t}</link>` +
          `<title>Story ${t}: a headline of ordinary length</title><createdAt>2020-01-01T00:00:00Z</createdAt>` +
          `<author><name>Editor</name><isAnonymous>false</isAnonymous></author><isClosed>false</isClosed><isDeleted>false</isDeleted></thread>\n`,
      );
    }
    for (let i = 0; i < COMMENTS; i++) {
      // Every third post replies to the post before it in its thread; one in thirty replies to a
      // post listed after it: the reads must place it.
      const thread = i % THREADS;
      // (THREADS is not a multiple of 3, so the post THREADS later is a top-level one.)
      const reply = i >= THREADS && i % 3 === 0;
      const early = i % 30 === 0 && i + THREADS < COMMENTS;
      const id = 5_000_000 + i;
      const parent = early ? id + THREADS : reply ? id - THREADS : null;
      const author = i % AUTHORS;
      const date = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      await write(
        `<post dsq:id="${id}"><id/><message><![CDATA[<p>Comment ${i} on story ${thread}: a reader's paragraph of some length, ` +
          `with a <a href="https://example.org/${i}" rel="nofollow">link</a> and a line<br>break.</p>]]></message>` +
          `<createdAt>${date}</createdAt><isDeleted>false</isDeleted><isSpam>${i % 97 === 0}</isSpam>` +
          `<author><email>reader${author}@example.com</email><name>Reader ${author}</name><isAnonymous>false</isAnonymous>` +
          `<username>reader${author}</username></author><thread dsq:id="${1_000_000 + thread}"/>` +
          (parent === null ? "" : `<parent dsq:id="${parent}"/>`) +
          `</post>\n`,
      );
    }
    await write("</disqus>\n");
  });
}

await measureImport({
  name: "import",
  fileName: "disqus-bench.xml",
  writeExport,
  source: IMPORT_SOURCES.disqus!,
  batchSize: Number(values.batch),
  items: COMMENTS,
  unit: "comments",
  print: async ({ db, accountId, megabytes, baselineMb, dry, real, line }) => {
    const comments = await db.comment.count({ where: { accountId } });
    console.log(`file      ${COMMENTS} comments, ${THREADS} threads, ${AUTHORS} authors, ${megabytes.toFixed(0)} MB`);
    console.log(`baseline  RSS ${baselineMb.toFixed(0)} MB before the runs`);
    console.log(line("dry run", dry));
    console.log(line("import", real!));
    console.log(`landed    ${comments} comments (${JSON.stringify(real!.report.kinds.comment)})`);
    if (comments !== COMMENTS) process.exitCode = 1;
  },
});
