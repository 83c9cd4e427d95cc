/**
 * A refusal of the member API in the reader's words (docs/i18n.md, "Member pages"): the page picks
 * the catalogue's message by the API's error code, per action, never showing the API's English
 * sentence. A field's problem found by the form's own check (the API's zod schema) is said by the
 * kind of issue: required, too short, too long, not an e-mail address.
 */
import type { z } from "zod";

import { ownValue } from "@/server/own-keys";

import type { MemberKey, MemberWords } from "./member-words";
import type { Problem } from "./self-service-api";

/** The message of an action's refusals by `error.code`, over the general ones. */
type ByCode = Readonly<Partial<Record<string, MemberKey>>>;

const GENERAL: ByCode = {
  RATE_LIMITED: "common.rateLimited",
  UNAUTHORIZED: "common.signedOut",
  SERVICE_UNAVAILABLE: "common.gatewayDown",
};

export function problemText(t: MemberWords["t"], problem: Problem, byCode: ByCode = {}): string {
  if (problem.status === 0) return t("common.offline");
  const code = problem.code ?? "";
  return t(ownValue(byCode, code) ?? ownValue(GENERAL, code) ?? "common.error");
}

/** One zod issue of a form's field, in the reader's words. */
export function issueText(t: MemberWords["t"], issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small") {
    const min = Number(issue.minimum);
    return min <= 1 ? t("field.required") : t("field.tooShort", { min });
  }
  if (issue.code === "too_big") return t("field.tooLong", { max: Number(issue.maximum) });
  if (issue.code === "invalid_format" && issue.format === "email") return t("field.email");
  return t("field.invalid");
}
