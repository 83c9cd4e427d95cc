/** Solved captchas for integration tests (server/engagement/captcha.ts). */
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

import { getEnv } from "../../env.js";
import { captchaSecrets, createCaptchaChallenge, type CaptchaSecrets } from "../engagement/captcha";

/** A few milliseconds of work instead of the production difficulty: tests solve many. */
export const EASY_CAPTCHA = { cost: 10, counterMin: 5, counterMax: 20 };

/** base64(JSON {challenge, solution}), as the ALTCHA widget sends it. */
export function encodeCaptcha(challenge: Challenge, solution: { counter: number; derivedKey: string }): string {
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

export async function solve(challenge: Challenge): Promise<{ counter: number; derivedKey: string }> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("could not solve the challenge");
  return solution;
}

/** A challenge of the account, issued at `now` (default: now), solved: a captcha_response. */
export async function solvedCaptcha(
  accountId: number,
  options: { now?: Date; secrets?: CaptchaSecrets } = {},
): Promise<string> {
  const challenge = await createCaptchaChallenge({
    accountId,
    now: options.now ?? new Date(),
    secrets: options.secrets ?? captchaSecrets(getEnv()),
    difficulty: EASY_CAPTCHA,
  });
  return encodeCaptcha(challenge, await solve(challenge));
}
