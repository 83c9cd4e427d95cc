/**
 * The first read of a comment export: what later items need to know about the whole file, in
 * memory that grows with the number of ids, never with the content (a few dozen bytes a post).
 *
 * - the threads, by id (URL, title, date), and how many posts each has;
 * - each post's position, its parent's, and so the top-level post of its thread (its **root**):
 *   Masthead nests replies one level (a reply's parent is a top-level comment), so a reply at any
 *   depth is kept under its root, and the post it answered is kept in import_records
 *   (source_parent_id);
 * - each post's thread (a reply must be on its root's);
 * - the replies listed before the post they answer (their reply_to_id is set when it is written);
 * - posts whose id comes twice (the later ones are refused), posts in a loop of parents;
 * - the authors (by authorKey) whose every post is spam: they do not become members (authors.ts);
 * - the file's problems, its root element and its SHA-256.
 * Later reads go through the file again and take these answers from here.
 */
import { createHash } from "node:crypto";

import { ImportFileError, type FileProblem, type ImportFile } from "../types";
import { authorKey, type CommentPost, type CommentReader, type CommentThread } from "./records";

/** No parent, or a parent that is not in the file. */
export const NO_PARENT = -1;
export const MISSING_PARENT = -2;
/** A post in a loop of parents (a file written wrongly). */
export const IN_LOOP = -3;

export type CommentIndex = {
  digest: string;
  /** The site the file names (its first "site" record), or "". */
  site: string;
  problems: FileProblem[];
  threads: Map<string, CommentThread & { posts: number }>;
  /** Position (0…) of the first post with each id. */
  positionOf: Map<string, number>;
  /** Ids by position. */
  ids: string[];
  /** Thread ids by position (the thread map's own strings, shared). */
  threadOf: (string | null)[];
  /** Parent position, NO_PARENT or MISSING_PARENT, by position. */
  parents: Int32Array;
  /** Root position (itself for a top-level post), or IN_LOOP, by position. */
  roots: Int32Array;
  /** Parent position → the positions of its replies listed before it (few: most files list parents first). */
  earlyReplies: Map<number, number[]>;
  /** Post elements read, duplicates included: the positions of later reads. */
  postCount: number;
  /** The authors (authorKey) all of whose posts are spam, and how many posts they wrote. */
  spamOnly: { authors: Set<string>; posts: number };
};

/** Each author's posts and spam posts, by authorKey. */
type AuthorCounts = Map<string, { posts: number; spam: number }>;

function countAuthor(counts: AuthorCounts, provider: string, post: CommentPost) {
  const key = authorKey(provider, post.author);
  if (key === null) return;
  const count = counts.get(key) ?? { posts: 0, spam: 0 };
  count.posts++;
  if (post.spam || post.state === "spam") count.spam++;
  counts.set(key, count);
}

function spamOnlyOf(counts: AuthorCounts): CommentIndex["spamOnly"] {
  const spamOnly = { authors: new Set<string>(), posts: 0 };
  for (const [key, { posts, spam }] of counts) {
    if (spam < posts) continue;
    spamOnly.authors.add(key);
    spamOnly.posts += posts;
  }
  return spamOnly;
}

/** Read the file once (see the file's comment). ImportFileError when it is not this reader's format. */
export async function indexCommentFile(reader: CommentReader, file: ImportFile): Promise<CommentIndex> {
  const hash = createHash("sha256");
  const problems: FileProblem[] = [];
  const threads: CommentIndex["threads"] = new Map();
  const positionOf = new Map<string, number>();
  const ids: string[] = [];
  const threadOf: (string | null)[] = [];
  const parentIds: (string | null)[] = [];
  let root: string | null = null;
  let site = "";
  let postCount = 0;
  const authors: AuthorCounts = new Map();
  for await (const record of reader.read(file.path, (bytes) => hash.update(bytes))) {
    if (record.type === "root") {
      root = record.name;
      if (root !== reader.root) {
        throw new ImportFileError(
          `${file.name} is not ${reader.title}: its root element is <${root}>, not <${reader.root}>.`,
        );
      }
    } else if (record.type === "site") {
      site ||= record.site;
    } else if (record.type === "problem") {
      if (problems.length < 1000) problems.push(record.problem);
    } else if (record.type === "thread") {
      if (!threads.has(record.thread.sourceId)) threads.set(record.thread.sourceId, { ...record.thread, posts: 0 });
    } else {
      postCount++;
      const { post } = record;
      if (!post.sourceId || positionOf.has(post.sourceId)) continue;
      if (!post.skip) countAuthor(authors, reader.provider, post);
      positionOf.set(post.sourceId, ids.length);
      ids.push(post.sourceId);
      parentIds.push(post.parentId);
      const thread = post.threadId ? threads.get(post.threadId) : undefined;
      threadOf.push(thread?.sourceId ?? post.threadId);
      if (thread) thread.posts++;
    }
  }
  if (root === null) throw new ImportFileError(`${file.name} is not ${reader.title}: it holds no XML element.`);
  const parents = new Int32Array(ids.length);
  parentIds.forEach((id, i) => {
    parents[i] = id === null ? NO_PARENT : (positionOf.get(id) ?? MISSING_PARENT);
  });
  return {
    digest: hash.digest("hex"),
    site,
    problems,
    threads,
    positionOf,
    ids,
    threadOf,
    parents,
    roots: rootsOf(parents),
    earlyReplies: earlyRepliesOf(parents),
    postCount,
    spamOnly: spamOnlyOf(authors),
  };
}

/** Parent position → its replies listed before it. */
function earlyRepliesOf(parents: Int32Array): Map<number, number[]> {
  const early = new Map<number, number[]>();
  parents.forEach((parent, position) => {
    if (parent > position) early.set(parent, [...(early.get(parent) ?? []), position]);
  });
  return early;
}

/** The root of every post (a walk up its parents; a loop marks every post on it IN_LOOP). */
export function rootsOf(parents: Int32Array): Int32Array {
  const roots = new Int32Array(parents.length).fill(-10);
  const path: number[] = [];
  for (let start = 0; start < parents.length; start++) {
    if (roots[start] !== -10) continue;
    path.length = 0;
    let at = start;
    let root: number;
    const onPath = new Set<number>();
    for (;;) {
      if (roots[at] !== -10) {
        root = roots[at]!;
        break;
      }
      if (onPath.has(at)) {
        root = IN_LOOP;
        break;
      }
      onPath.add(at);
      path.push(at);
      const parent = parents[at]!;
      if (parent < 0) {
        root = at;
        break;
      }
      at = parent;
    }
    for (const p of path) roots[p] = root;
  }
  return roots;
}
