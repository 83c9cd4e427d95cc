/**
 * node --conditions=react-server --import tsx scripts/import/bench-content-import.ts [--posts 20000] [--batch 100] [--dry-run-only]
 *
 * How fast, and in how much memory, a large WordPress export's posts import (docs/performance.md,
 * "Imports"): writes a generated WXR file (block-editor posts of a dozen blocks with an image, a
 * gallery every tenth post, a YouTube embed every fifth, 50 authors, 40 categories, 500 tags, a
 * featured image each, one attachment per post), then runs a dry run and a real run of it into a
 * fresh account, sampling the process's resident size (bench-measure.ts; `--dry-run-only`: the dry
 * run alone).
 * Database: DATABASE_URL (a schema of its own, dropped at the end) or an in-memory PGlite (whose
 * data then lives in this process). On a shared PostgreSQL, a long run's batch transactions hold
 * up other processes' migrations: run it where nothing else migrates.
 */
import { parseArgs } from "node:util";

import { DEFAULT_BATCH_SIZE } from "../../server/imports/runner";
import { IMPORT_SOURCES } from "../../server/imports/sources";
import { measureImport, writeStream } from "./bench-measure";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "20000" },
    batch: { type: "string", default: String(DEFAULT_BATCH_SIZE) },
    "dry-run-only": { type: "boolean", default: false },
  },
});
const POSTS = Number(values.posts);
const HOST = "https://news.example.com";

function body(i: number): string {
  const paragraph = (n: number) =>
    `<!-- wp:paragraph -->\n<p>Paragraph ${n} of post ${i}: an ordinary sentence of news, with <strong>some</strong> emphasis and a <a href="https://example.org/${i}/${n}">link</a>.</p>\n<!-- /wp:paragraph -->\n`;
  let html = "";
  for (let n = 0; n < 8; n++) html += paragraph(n);
  html += `<!-- wp:heading -->\n<h2 class="wp-block-heading">Section of ${i}</h2>\n<!-- /wp:heading -->\n`;
  html += `<!-- wp:image -->\n<figure class="wp-block-image"><img src="${HOST}/wp-content/uploads/${i}.jpg" alt="Picture ${i}"/><figcaption>Caption ${i}</figcaption></figure>\n<!-- /wp:image -->\n`;
  if (i % 10 === 0) {
    html += `<!-- wp:gallery -->\n<figure class="wp-block-gallery">${[1, 2, 3]
      .map(
        (g) => `<figure class="wp-block-image"><img src="${HOST}/wp-content/uploads/${i}-${g}.jpg" alt=""/></figure>`,
      )
      .join("")}</figure>\n<!-- /wp:gallery -->\n`;
  }
  if (i % 5 === 0) {
    html += `<!-- wp:embed -->\n<figure class="wp-block-embed is-provider-youtube"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n</div></figure>\n<!-- /wp:embed -->\n`;
  }
  return html + `<!-- wp:list -->\n<ul><li>One</li><li>Two</li></ul>\n<!-- /wp:list -->`;
}

/** A WXR export of POSTS posts (and as many attachments), written in a stream. */
async function writeExport(file: string): Promise<void> {
  await writeStream(file, async (write) => {
    await write(
      `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n<title>Bench</title><link>${HOST}</link><wp:wxr_version>1.2</wp:wxr_version>\n`,
    );
    for (let a = 0; a < 50; a++) {
      await write(
        `<wp:author><wp:author_id>${a + 1}</wp:author_id><wp:author_login><![CDATA[writer${a}]]></wp:author_login><wp:author_email><![CDATA[writer${a}@example.com]]></wp:author_email><wp:author_display_name><![CDATA[Writer ${a}]]></wp:author_display_name></wp:author>\n`,
      );
    }
    for (let i = 0; i < POSTS; i++) {
      const id = 100_000 + i;
      const date = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
      await write(
        `<item><title><![CDATA[Picture ${i}]]></title><wp:post_id>${id + POSTS}</wp:post_id><wp:status><![CDATA[inherit]]></wp:status><wp:post_type><![CDATA[attachment]]></wp:post_type><wp:attachment_url><![CDATA[${HOST}/wp-content/uploads/hero-${i}.jpg]]></wp:attachment_url></item>\n` +
          `<item><title><![CDATA[Story ${i}: a headline of ordinary length]]></title><link>${HOST}/${date.slice(0, 4)}/${date.slice(5, 7)}/story-${i}/</link>` +
          `<dc:creator><![CDATA[writer${i % 50}]]></dc:creator><content:encoded><![CDATA[${body(i)}]]></content:encoded>` +
          `<excerpt:encoded><![CDATA[Summary of story ${i}.]]></excerpt:encoded><wp:post_id>${id}</wp:post_id>` +
          `<wp:post_date_gmt><![CDATA[${date}]]></wp:post_date_gmt><wp:post_name><![CDATA[story-${i}]]></wp:post_name>` +
          `<wp:status><![CDATA[publish]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>` +
          `<category domain="category" nicename="section-${i % 40}"><![CDATA[Section ${i % 40}]]></category>` +
          `<category domain="post_tag" nicename="tag-${i % 500}"><![CDATA[Tag ${i % 500}]]></category>` +
          `<category domain="post_tag" nicename="tag-${(i * 7) % 500}"><![CDATA[Tag ${(i * 7) % 500}]]></category>` +
          `<wp:postmeta><wp:meta_key><![CDATA[_thumbnail_id]]></wp:meta_key><wp:meta_value><![CDATA[${id + POSTS}]]></wp:meta_value></wp:postmeta>` +
          `<wp:postmeta><wp:meta_key><![CDATA[source]]></wp:meta_key><wp:meta_value><![CDATA[wire ${i % 3}]]></wp:meta_value></wp:postmeta>` +
          `</item>\n`,
      );
    }
    await write("</channel>\n</rss>\n");
  });
}

await measureImport({
  name: "content",
  fileName: "wxr-bench.xml",
  writeExport,
  source: IMPORT_SOURCES.wxr!,
  batchSize: Number(values.batch),
  items: POSTS,
  unit: "posts",
  dryRunOnly: values["dry-run-only"],
  prepareAccount: async (db, accountId) => {
    await db.publisherConfig.create({
      data: {
        accountId,
        siteUrl: HOST,
        cdnImage: "images.example.com",
        settings: { "external-image-hosts": ["news.example.com"] },
      },
    });
  },
  print: async ({ db, config, accountId, megabytes, baselineMb, dry, real, line }) => {
    const stories = await db.story.count({ where: { accountId } });
    console.log(`file      ${POSTS} posts and ${POSTS} attachments, ${megabytes.toFixed(0)} MB`);
    console.log(`baseline  RSS ${baselineMb.toFixed(0)} MB before the runs`);
    console.log(line("dry run", dry));
    console.log(`planned   ${JSON.stringify(dry.report.kinds.story)}`);
    // With --expose-gc: what stays reachable once the runs are over (the rest of the peak is garbage not yet collected).
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) {
      gc();
      console.log(`heap      ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB used after a full collection`);
    }
    if (real) {
      console.log(line("import", real));
      console.log(`landed    ${stories} stories (${JSON.stringify(real.report.kinds.story)})`);
      if (config.kind === "postgresql") {
        // Tables with their indexes and TOAST, of the bench's own schema (only the import wrote to it).
        const [size] = await db.$queryRawUnsafe<{ bytes: bigint | null }[]>(
          `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
          config.schema,
        );
        console.log(
          `database  ${(Number(size?.bytes ?? 0) / 1e6).toFixed(0)} MB (tables, indexes and TOAST of its schema)`,
        );
      }
      if (real.report.lines.refuse.length)
        console.log(`refused   ${JSON.stringify(real.report.lines.refuse.slice(0, 3))}`);
    }
    if (dry.report.kinds.story?.create !== POSTS || (real && stories !== POSTS)) process.exitCode = 1;
  },
});
