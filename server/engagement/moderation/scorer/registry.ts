/**
 * Which scorer scores comments: the lexicon scorer unless an operator registers another one at
 * start-up (docs/engagement.md, "Plugging in another scorer"):
 *
 *   // instrumentation.ts, in register()
 *   const { setCommentScorer } = await import("./server/engagement/moderation/scorer/registry");
 *   setCommentScorer({ name: "my-model", score: async (input) => ({ toxicity, isSpam, reasons }) });
 *
 * A scorer that throws, answers something that is not a CommentScore, or takes longer than
 * SCORER_TIMEOUT_MS is logged and replaced, for that comment, by the lexicon scorer (reason
 * "scorer.fallback"): a broken model never blocks commenting.
 */
import "server-only";

import { log } from "../../../log";
import { lexiconScorer } from "../lexicon/lexicon-scorer";
import { ZCommentScore, type CommentScore, type CommentScorer, type ScorerInput } from "./scorer";

export const SCORER_TIMEOUT_MS = 2_000;

let current: CommentScorer = lexiconScorer;

/** Use `scorer` for every comment from now on (null: the lexicon scorer again). */
export function setCommentScorer(scorer: CommentScorer | null): void {
  current = scorer ?? lexiconScorer;
}

/** The scorer registered at start-up (the lexicon scorer unless another one was). */
export function registeredScorer(): CommentScorer {
  return current;
}

/**
 * `scorer`'s answer, or the lexicon scorer's (reason "scorer.fallback") when it throws, answers
 * something that is not a CommentScore or takes longer than `timeoutMs` (SCORER_TIMEOUT_MS): the
 * registered scorer's, and the external scorer's over HTTP (http-scorer.ts).
 */
export async function scoreWith(
  scorer: CommentScorer,
  input: ScorerInput,
  options: { timeoutMs?: number } = {},
): Promise<CommentScore> {
  if (scorer === lexiconScorer) return lexiconScorer.score(input);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`scorer timed out after ${options.timeoutMs ?? SCORER_TIMEOUT_MS} ms`)),
        options.timeoutMs ?? SCORER_TIMEOUT_MS,
      );
    });
    const answer: unknown = await Promise.race([Promise.resolve().then(() => scorer.score(input)), timeout]);
    return ZCommentScore.parse(answer);
  } catch (error) {
    log.warn("comment scorer failed; the lexicon scorer answered", { scorer: scorer.name, error });
    const fallback = await lexiconScorer.score(input);
    return { ...fallback, reasons: [...fallback.reasons, "scorer.fallback"] };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
