/**
 * What the comments widget says about a page's rules before the reader writes (docs/widgets.md
 * "Page rules"), from GET …/comment_rules.json: closed (no composer), held for a moderator (by the
 * moderators, or by a surge while they catch up or are off shift), slow mode with its wait. Pure:
 * the words are the catalogue's (i18n/messages/widgets), formatted by the caller's `t`.
 */
import { type StringKey, type T } from "./translate";

export type PageRules = {
  comment_mode: "open" | "pre_moderation" | "closed";
  slow_mode_seconds: number;
  surge: { reason: "queue" | "off_shift"; action: "pre_moderation" | "slow_mode"; slow_mode_seconds: number } | null;
  /** Present (true) on a Q&A page: readers see answered questions only. */
  qa_mode?: boolean;
};

/** How often one may post, in words: "every 30 seconds", "every minute", "every 5 minutes", "every 2 hours". */
export function waitText(seconds: number, t: T): string {
  if (seconds % 3600 === 0) return t("waitHours", { n: seconds / 3600 });
  if (seconds % 60 === 0) return t("waitMinutes", { n: seconds / 60 });
  return t("waitSeconds", { n: seconds });
}

/** The lines the widget shows above the composer (none for an open page without slow mode). */
export function rulesLines(rules: PageRules | null, t: T): string[] {
  if (!rules) return [];
  if (rules.comment_mode === "closed") return [t("rulesClosed")];
  const lines: string[] = [];
  const surge = rules.surge;
  if (rules.comment_mode === "pre_moderation") {
    // The surge's words when the surge holds; the moderators' own pre-moderation otherwise.
    if (surge && surge.action === "pre_moderation")
      lines.push(t(surge.reason === "queue" ? "rulesSurgeQueue" : "rulesSurgeOffShift"));
    else lines.push(t("rulesPreModerated"));
  }
  if (rules.slow_mode_seconds > 0) {
    const wait = waitText(rules.slow_mode_seconds, t);
    // The surge's reason when the surge's wait is the one that applies.
    const bySurge = surge && surge.action === "slow_mode" && surge.slow_mode_seconds >= rules.slow_mode_seconds;
    const key: StringKey = bySurge
      ? surge.reason === "queue"
        ? "rulesSlowSurgeQueue"
        : "rulesSlowSurgeOffShift"
      : "rulesSlow";
    lines.push(t(key, { wait }));
  }
  return lines;
}
