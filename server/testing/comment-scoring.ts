/**
 * The setting of the comment scoring tests: a publisher with an owner and a moderator, readers,
 * comments posted on one page, and the tests' base scorer (fixedScore).
 */
import { afterEach, beforeEach, vi } from "vitest";

import { resetEnvCache } from "../../env.js";
import type { ApiUser } from "../auth/api-auth";
import { getDb } from "../db";
import { createComment } from "../engagement/comments";
import { setCommentScorer } from "../engagement/moderation/scorer/registry";
import type { CommentScore, ScorerInput } from "../engagement/moderation/scorer/scorer";
import { pageId } from "./engagement";
import { createTestPublisher } from "./publishing-factories";
import { createTestStaff } from "./staff";

/** The page the comments are posted on. */
export const PAGE_URL = "https://news.example.com/politics/a-story";
export const reader = (id: string): ApiUser => ({ id, name: id, email: null, avatarUrl: null, provider: null });

export async function scoringSetup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const owner = await createTestStaff(db, { account: account.id, roles: ["OWNER"], name: "Olive" });
  const moderator = await createTestStaff(db, { account: owner.account.id, roles: ["MODERATOR"], name: "Mo" });
  return { db, accountId: owner.account.id, owner, moderator };
}
type ScoringSetup = Awaited<ReturnType<typeof scoringSetup>>;

/** A comment `text` on PAGE_URL, by `user` (reader "ada" unless told), as its row. */
export async function postComment(s: ScoringSetup, text: string, opts: { user?: ApiUser; now?: Date } = {}) {
  const { response } = await createComment(s.db, {
    account: { id: s.accountId, slug: "x", name: "x" },
    user: opts.user ?? reader("ada"),
    encodedUrl: pageId(PAGE_URL),
    input: { comment: { body: { ops: [{ insert: text }] } } },
    now: opts.now ?? new Date(),
  });
  return s.db.comment.findUniqueOrThrow({ where: { id: response.comment.id } });
}

/**
 * The base scorer of these tests: fixed scores by phrase, so that what is tested is the layers over
 * it, whatever the built-in scorer's figures become.
 */
const PHRASES: [RegExp, number, string][] = [
  [/you idiot/i, 77.3, "toxicity.insult"],
  [/fucking/i, 45, "toxicity.profanity"],
  [/idiots everywhere/i, 35, "toxicity.insult"],
  [/bloody/i, 25, "toxicity.profanity"],
  [/pathetic/i, 20, "toxicity.insult"],
];
function fixedScore(input: ScorerInput): CommentScore {
  const found = PHRASES.find(([pattern]) => pattern.test(input.text));
  return { toxicity: found?.[1] ?? 0, isSpam: false, reasons: found ? [found[2]] : [], spam: 0 };
}

/**
 * The file's tests score with fixedScore; after each, the scorer, stubbed environment variables
 * and spies are put back. Called at the top of a test file.
 */
export function withFixedScorer(): void {
  beforeEach(() => {
    setCommentScorer({ name: "fixed", score: fixedScore });
  });
  afterEach(() => {
    setCommentScorer(null);
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    resetEnvCache();
  });
}
