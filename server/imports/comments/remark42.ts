/**
 * A Remark42 backup (remark42.com/docs/backup: `backup -s <site>` or the automatic daily backups,
 * `userbackup-<site>-<time>.gz`; the admin API's export is the same file), in Remark42's "native"
 * format (umputun/remark42 backend/app/migrator/native.go), gzipped or not:
 *
 * - line 1, the meta: {"version":1,"users":[{id, blocked:{status,until}, verified, details:{user_id,
 *   email}}],"posts":[{url, read_only}]};
 * - then one comment a line (store.Comment): id, pid (the parent's id, "" at the top), text (HTML,
 *   as Remark42 shows it), user {name, id, picture, ip (hashed), admin, block, verified}, locator
 *   {site, url}, score, votes, time (RFC 3339), edit, pin, delete, imported, title.
 *
 * Remark42 has no thread ids: a page is its locator URL (the first comment of a URL makes its
 * thread, named by the URL, dated by that comment, titled by its `title` where it has one). A
 * user's id is "<provider>_<hash>" ("github_…", "google_…", "email_…", "anonymous_…"); a
 * hard-deleted user's comments say "deleted". So:
 * - "anonymous_…" and "deleted" authors are guests (the name kept, "deleted" none);
 * - any other is an account, the identity remark42:<id>, with the e-mail of the meta's
 *   `details.email` where there is one: Remark42 sets it only once the user confirmed it (the
 *   link it mails, or an email_ login by that address), so it is a verified address. The id's
 *   hash of an e-mail is not an address and is never taken for one.
 * - `delete` → deleted (a placeholder; Remark42 empties the text); Remark42 has no pending or
 *   spam state, so everything else is published. A user blocked there (the meta's
 *   `blocked.status`, or `user.block`) keeps their comments, as Remark42 shows them (dimmed,
 *   marked "Blocked"); the block is not carried over, and the report notes it once per user.
 * A read-only post (the meta's `posts[].read_only`) closes its page. Dropped: votes and score,
 * pins, edits' summaries, avatars, IP hashes, the "verified" badge. Read as CommentRecords, line by line (json-lines.ts).
 */
import { z } from "zod";

import { formatInstant } from "../../dates.schema";
import { ImportLimitError } from "../limits";
import { ImportFileError, siteScope } from "../types";
import { fileName, readJsonLines, type JsonLine } from "./json-lines";
import { emptyPost, parseExportDate, type CommentPost, type CommentReader, type CommentRecord } from "./records";

const REMARK42_ROOT = "remark42";

const ZMeta = z
  .object({
    version: z.number().int().optional(),
    users: z
      .array(
        z.object({
          id: z.string(),
          blocked: z.object({ status: z.boolean().optional(), until: z.string().optional() }).nullish(),
          details: z.object({ email: z.string().optional() }).nullish(),
        }),
      )
      .nullish(),
    posts: z.array(z.object({ url: z.string(), read_only: z.boolean().nullish() })).nullish(),
  })
  .refine((meta) => meta.version !== undefined || meta.users != null || meta.posts != null);

const ZComment = z.object({
  id: z.string().trim().min(1),
  pid: z.string().nullish(),
  text: z.string().nullish(),
  user: z.object({ name: z.string().nullish(), id: z.string().nullish(), block: z.boolean().nullish() }),
  locator: z.object({ site: z.string().nullish(), url: z.string().nullish() }),
  time: z.string(),
  delete: z.boolean().nullish(),
  title: z.string().nullish(),
});

type RemarkUser = { email: string | null; blockedUntil: string | null };

/** The meta line's users by id (only those with an e-mail or a block: what the comments need). */
function usersOf(meta: z.infer<typeof ZMeta>): Map<string, RemarkUser> {
  const users = new Map<string, RemarkUser>();
  for (const user of meta.users ?? []) {
    const email = user.details?.email?.trim() || null;
    const blocked = user.blocked?.status === true;
    if (!email && !blocked) continue;
    const until = blocked ? (user.blocked?.until ?? "") : null;
    users.set(user.id, { email, blockedUntil: until });
  }
  return users;
}

/** Whether a Remark42 user id is no account: an anonymous login, or a user who deleted their data. */
export function isRemark42Guest(id: string): boolean {
  return id === "" || id === "deleted" || id.startsWith("anonymous_");
}

function blockNote(name: string, id: string, until: string | null): string {
  const date = until ? parseExportDate(until) : null;
  // Remark42 blocks "permanently" until a date centuries away. The file is read before any account's
  // zone applies: the time is said in UTC, named.
  const when = date instanceof Date && date.getUTCFullYear() < 2100 ? ` until ${formatInstant(date, "UTC")}` : "";
  return `Remark42 user "${name}" (${id}) is blocked there${when}: their comments are imported as Remark42 shows them, the block is not (ban them on the Community page if it should hold)`;
}

/** A comment line as a post, or why it is not a comment at all (a problem of the file). */
function remark42Post(
  value: unknown,
  line: number,
  users: ReadonlyMap<string, RemarkUser>,
): CommentPost | { problem: string } {
  const parsed = ZComment.safeParse(value);
  if (!parsed.success) {
    const id = typeof value === "object" && value && "id" in value ? value.id : undefined;
    const issue = parsed.error.issues[0]!;
    const why = `its ${issue.path.join(".") || "line"} is ${issue.code === "invalid_type" && issue.input === undefined ? "missing" : "not valid"}`;
    if (typeof id !== "string" || !id.trim())
      return { problem: `a line that is not a Remark42 comment (${why}): left out` };
    return { ...emptyPost(id.trim(), line), errors: [`${why} (line ${line})`] };
  }
  const c = parsed.data;
  const errors: string[] = [];
  const created = parseExportDate(c.time);
  if (created === "invalid") errors.push(`its time "${c.time}" is not a date`);
  const userId = c.user.id?.trim() ?? "";
  const name = c.user.name?.trim() || null;
  const guest = isRemark42Guest(userId);
  const known = users.get(userId);
  const blocked = !guest && (c.user.block === true || (known !== undefined && known.blockedUntil !== null));
  return {
    sourceId: c.id.trim(),
    threadId: c.locator.url?.trim() || null,
    parentId: c.pid?.trim() || null,
    createdAt: created instanceof Date ? created : null,
    html: c.text ?? "",
    newlines: "html",
    state: c.delete ? "deleted" : "published",
    spam: false,
    author: {
      name: userId === "deleted" ? null : name,
      email: guest ? null : (known?.email ?? null),
      accountId: guest ? null : userId,
      anonymous: guest,
    },
    skip: null,
    errors,
    note: blocked ? blockNote(name ?? userId, userId, known?.blockedUntil ?? null) : null,
    line,
  };
}

/**
 * `lines`, with `refusal` instead of the reader's own when the first line is broken: a file whose
 * first line is not JSON (another export, XML) is not a backup, which says more than its line 1.
 */
async function* firstLineAs(lines: AsyncGenerator<JsonLine>, refusal: ImportFileError): AsyncGenerator<JsonLine> {
  let first = true;
  try {
    for await (const entry of lines) {
      first = false;
      yield entry;
    }
  } catch (error) {
    if (first && error instanceof ImportFileError && !(error instanceof ImportLimitError)) throw refusal;
    throw error;
  }
}

async function* readRemark42(path: string, onBytes: (bytes: Buffer) => void): AsyncGenerator<CommentRecord> {
  const name = fileName(path);
  let users: Map<string, RemarkUser> | null = null;
  let readOnly = new Set<string>();
  const threads = new Set<string>();
  let siteSent = false;
  const notBackup = new ImportFileError(
    `${name} is not a Remark42 backup: its first line is not the {"version":1,"users":[…],"posts":[…]} line a Remark42 backup starts with.`,
  );
  const lines = readJsonLines(path, onBytes);
  for await (const entry of firstLineAs(lines, notBackup)) {
    if (users === null) {
      const meta = ZMeta.safeParse(entry.value);
      if (!meta.success) throw notBackup;
      const version = meta.data.version ?? 0;
      if (version !== 0 && version !== 1) {
        throw new ImportFileError(
          `${name} is a Remark42 backup of version ${version}: only versions 0 and 1 are read.`,
        );
      }
      users = usersOf(meta.data);
      readOnly = new Set((meta.data.posts ?? []).filter((p) => p.read_only === true).map((p) => p.url));
      yield { type: "root", name: REMARK42_ROOT };
      continue;
    }
    const post = remark42Post(entry.value, entry.line, users);
    if ("problem" in post) {
      yield { type: "problem", problem: { where: `line ${entry.line}`, message: post.problem } };
      continue;
    }
    // One backup is one Remark42 site: its id (the comments' locator.site) scopes the ids.
    const site = (entry.value as { locator?: { site?: unknown } }).locator?.site;
    if (!siteSent && typeof site === "string" && siteScope(site)) {
      siteSent = true;
      yield { type: "site", site: siteScope(site) };
    }
    if (post.threadId && !threads.has(post.threadId)) {
      threads.add(post.threadId);
      const title = (entry.value as { title?: unknown }).title;
      yield {
        type: "thread",
        thread: {
          sourceId: post.threadId,
          url: post.threadId,
          title: typeof title === "string" && title.trim() ? title.trim() : null,
          createdAt: post.createdAt,
          line: post.line,
          closed: readOnly.has(post.threadId),
        },
      };
    }
    yield { type: "post", post };
  }
  if (users === null) throw new ImportFileError(`${name} is not a Remark42 backup: it is empty.`);
}

export const REMARK42_READER: CommentReader = {
  provider: "remark42",
  root: REMARK42_ROOT,
  title: "a Remark42 backup",
  read: readRemark42,
};
