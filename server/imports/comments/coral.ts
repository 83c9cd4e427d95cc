/**
 * Coral (coralproject/talk) comments, read from Coral's own database.
 *
 * Why the database and not an export: Coral offers no site-wide export a newsroom can download.
 * Its admin has none; what it documents (docs.coralproject.net/gdpr) is "Download my comment
 * data", a per-reader zip of one CSV (comment id, a date in the tenant's locale, story URL,
 * comment URL, the text flattened by html-to-text: server/src/core/server/services/users/download)
 * with no replies' parents, no moderation state and no other reader, and its FAQ says import
 * tools for version 5 are "still in development". What a newsroom can obtain is its MongoDB:
 * running Coral itself, or from Coral's support for a hosted install. Coral's repository ships
 * the tool for exactly that, utilities/download: one `<collection>.json` per collection of a
 * tenant, one JSON document a line; `mongoexport` writes the same (in Extended JSON,
 * `{"$date": …}` for dates).
 *
 * FILE is the folder holding them: users.json, stories.json, comments.json, and
 * archivedComments.json where Coral archived old stories' comments (schemas:
 * server/src/core/server/models/{comment,story,user} of coralproject/talk):
 * - a story {id, tenantID, url, metadata {title}, createdAt} is a thread;
 * - a comment {id, tenantID, storyID, parentID, authorID, revisions [{body (HTML), media}],
 *   status, createdAt, deletedAt} is a post: its last revision's body (with its media, a GIF or
 *   an embed, as a link), and its status: NONE → published, APPROVED → approved, PREMOD and
 *   SYSTEM_WITHHELD → held, REJECTED → rejected (spam when Akismet had marked that revision
 *   spam); `deletedAt` → deleted (Coral empties a deleted reader's comments and their author);
 * - a user {id, username, email, emailVerified, status.ban} is its author: an account, the
 *   identity coral:<id>, with the e-mail only when Coral says it was verified. Coral has no
 *   guests; a comment whose author deleted their account (authorID null) is a guest's, unnamed.
 *   A banned user's comments are imported in their own states, the ban is not (a report note).
 * Dropped: reactions and flags (actionCounts), tags such as "featured", ratings, earlier
 * revisions, moderation actions and their reasons, story settings (premod, Q&A). A story a moderator
 * closed (closedAt a date; false is reopened) closes its page.
 *
 * Users are read first and kept in memory (id → name, e-mail, ban: some 100 bytes a user); stories
 * and comments are streamed. Rows of another tenant than the stories' first are left out.
 */
import fs from "node:fs";
import nodePath from "node:path";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";
import { escapeHtml } from "@/server/security/html";

import { displayName } from "../limits";
import { ImportFileError } from "../types";
import { readJsonLines, type JsonLine } from "./json-lines";
import {
  emptyPost,
  parseExportDate,
  type CommentPost,
  type CommentReader,
  type CommentRecord,
  type SourceState,
} from "./records";

const CORAL_ROOT = "coral";
const CORAL_FILES = { users: "users.json", stories: "stories.json", comments: "comments.json" } as const;
/** Comments of archived stories (Coral's archive database), where the folder has them. */
const CORAL_ARCHIVED = "archivedComments.json";

/** A date as Coral's downloader (an ISO string) or mongoexport (`{"$date": …}`) writes it. */
const ZDate = z.union([
  z.string(),
  z.number(),
  z.object({ $date: z.union([z.string(), z.number(), z.object({ $numberLong: z.string() })]) }),
]);

export function coralDate(value: z.infer<typeof ZDate> | null | undefined): Date | null | "invalid" {
  if (value === null || value === undefined) return null;
  const inner = typeof value === "object" ? value.$date : value;
  if (typeof inner === "object") return coralDate(Number(inner.$numberLong));
  if (typeof inner === "number") return Number.isFinite(inner) ? new Date(inner) : "invalid";
  return parseExportDate(inner);
}

const ZUser = z.object({
  id: z.string().min(1),
  tenantID: z.string().nullish(),
  username: z.string().nullish(),
  email: z.string().nullish(),
  emailVerified: z.boolean().nullish(),
  status: z.object({ ban: z.object({ active: z.boolean().nullish() }).nullish() }).nullish(),
});

const ZStory = z.object({
  id: z.string().min(1),
  tenantID: z.string().nullish(),
  url: z.string().nullish(),
  metadata: z.object({ title: z.string().nullish() }).nullish(),
  createdAt: ZDate.nullish(),
  /** When a moderator closed it; false: reopened. */
  closedAt: z.union([ZDate, z.literal(false)]).nullish(),
});

const ZComment = z.object({
  id: z.string().min(1),
  tenantID: z.string().nullish(),
  storyID: z.string().nullish(),
  parentID: z.string().nullish(),
  authorID: z.string().nullish(),
  revisions: z
    .array(
      z.object({
        body: z.string().nullish(),
        media: z.object({ type: z.string(), url: z.string(), title: z.string().nullish() }).nullish(),
        metadata: z.object({ akismet: z.boolean().nullish() }).nullish(),
      }),
    )
    .nullish(),
  status: z.string().nullish(),
  createdAt: ZDate,
  deletedAt: ZDate.nullish(),
});

type CoralUser = { name: string | null; email: string | null; banned: boolean };

const STATES: Record<string, SourceState> = {
  NONE: "published",
  APPROVED: "approved",
  PREMOD: "held",
  SYSTEM_WITHHELD: "held",
  REJECTED: "rejected",
};

const why = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  const field = issue.path.join(".") || "document";
  return `its ${field} is ${issue.code === "invalid_type" && issue.input === undefined ? "missing" : "not valid"}`;
};

/** A comments.json document as a post, or why it is not a comment at all. */
function coralPost(
  value: unknown,
  line: number,
  users: ReadonlyMap<string, CoralUser>,
): CommentPost | { problem: string } {
  const parsed = ZComment.safeParse(value);
  if (!parsed.success) {
    const id = typeof value === "object" && value && "id" in value ? value.id : undefined;
    if (typeof id !== "string" || !id)
      return { problem: `a document that is not a Coral comment (${why(parsed.error)})` };
    return { ...emptyPost(id, line), errors: [why(parsed.error)] };
  }
  const c = parsed.data;
  const errors: string[] = [];
  const created = coralDate(c.createdAt);
  if (created === "invalid" || created === null) errors.push("its createdAt is not a date");
  const revision = c.revisions?.at(-1);
  const media = revision?.media;
  const html =
    (revision?.body ?? "") +
    (media ? `<p><a href="${escapeHtml(media.url)}">${escapeHtml(media.title || media.type)}</a></p>` : "");
  const status = (c.status ?? "NONE").toUpperCase();
  let state: SourceState = ownValue(STATES, status) ?? "held";
  if (state === "rejected" && revision?.metadata?.akismet === true) state = "spam";
  if (c.deletedAt) state = "deleted";
  const authorId = c.authorID ?? null;
  const user = authorId ? users.get(authorId) : undefined;
  let note: string | null = null;
  if (authorId && !user) {
    note = `Coral user ${authorId} is not in ${CORAL_FILES.users}: their comments go to a member named by that id`;
  } else if (user?.banned) {
    note = `Coral user "${user.name ?? authorId}" (${authorId}) is banned there: their comments are imported in their own states, the ban is not (ban them on the Community page if it should hold)`;
  }
  return {
    sourceId: c.id,
    threadId: c.storyID ?? null,
    parentId: c.parentID || null,
    createdAt: created instanceof Date ? created : null,
    html,
    newlines: "html",
    state,
    spam: state === "spam",
    author: authorId
      ? { name: user?.name ?? null, email: user?.email ?? null, accountId: authorId, anonymous: false }
      : { name: null, email: null, accountId: null, anonymous: true },
    skip: null,
    errors,
    note,
    line,
  };
}

/** The folder's files, checked; ImportFileError when it is not a Coral folder. */
async function coralFiles(path: string): Promise<string[]> {
  const stat = await fs.promises.stat(path).catch(() => null);
  if (!stat) throw new ImportFileError(`Cannot read ${displayName(path)}: no such file or folder.`);
  const expected = `a folder holding ${Object.values(CORAL_FILES).join(", ")} (Coral's utilities/download or mongoexport)`;
  if (!stat.isDirectory()) throw new ImportFileError(`${displayName(path)} is not ${expected}.`);
  const names = await fs.promises.readdir(path);
  const missing = Object.values(CORAL_FILES).filter((n) => !names.includes(n));
  if (missing.length > 0) {
    throw new ImportFileError(`${displayName(path)} is not ${expected}: ${missing.join(", ")} missing.`);
  }
  return [
    CORAL_FILES.users,
    CORAL_FILES.stories,
    CORAL_FILES.comments,
    ...(names.includes(CORAL_ARCHIVED) ? [CORAL_ARCHIVED] : []),
  ];
}

async function* readCoral(path: string, onBytes: (bytes: Buffer) => void): AsyncGenerator<CommentRecord> {
  const files = await coralFiles(path);
  yield { type: "root", name: CORAL_ROOT };
  let tenant: string | null = null;
  const otherTenant = (id: string | null | undefined) => {
    if (!id) return false;
    tenant ??= id;
    return id !== tenant;
  };
  const problem = (file: string, entry: JsonLine, message: string): CommentRecord => ({
    type: "problem",
    problem: { where: `${file} line ${entry.line}`, message },
  });
  const users = new Map<string, CoralUser>();
  for await (const entry of readJsonLines(nodePath.join(path, CORAL_FILES.users), onBytes)) {
    const parsed = ZUser.safeParse(entry.value);
    if (!parsed.success) {
      yield problem(CORAL_FILES.users, entry, `not a Coral user (${why(parsed.error)}): left out`);
      continue;
    }
    const u = parsed.data;
    users.set(u.id, {
      name: u.username?.trim() || null,
      email: u.emailVerified === true ? (u.email?.trim() ?? null) : null,
      banned: u.status?.ban?.active === true,
    });
  }
  for await (const entry of readJsonLines(nodePath.join(path, CORAL_FILES.stories), onBytes)) {
    const parsed = ZStory.safeParse(entry.value);
    if (!parsed.success) {
      yield problem(CORAL_FILES.stories, entry, `not a Coral story (${why(parsed.error)}): left out`);
      continue;
    }
    const s = parsed.data;
    if (otherTenant(s.tenantID)) {
      yield problem(CORAL_FILES.stories, entry, `story ${s.id} is of another tenant (${s.tenantID}): left out`);
      continue;
    }
    const created = coralDate(s.createdAt);
    yield {
      type: "thread",
      thread: {
        sourceId: s.id,
        url: s.url?.trim() || null,
        title: s.metadata?.title?.trim() || null,
        createdAt: created instanceof Date ? created : null,
        line: entry.line,
        closed: s.closedAt !== false && coralDate(s.closedAt) instanceof Date,
      },
    };
  }
  for (const file of files.slice(2)) {
    for await (const entry of readJsonLines(nodePath.join(path, file), onBytes)) {
      const tenantID = entry.value.tenantID;
      if (typeof tenantID === "string" && otherTenant(tenantID)) {
        yield problem(file, entry, `a comment of another tenant (${tenantID}): left out`);
        continue;
      }
      const post = coralPost(entry.value, entry.line, users);
      if ("problem" in post) yield problem(file, entry, `${post.problem}: left out`);
      else yield { type: "post", post };
    }
  }
}

export const CORAL_READER: CommentReader = {
  provider: "coral",
  root: CORAL_ROOT,
  title: "a Coral database export",
  read: readCoral,
};
