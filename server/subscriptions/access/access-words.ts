/**
 * The reader's words with an access grant (docs/subscriptions.md, "AMP"): when the check is asked
 * with `locale` (the AMP page's language, written in its authorization URL), the grant's `data`
 * also holds `locale`, `dir` and `messages`: `notice` (what the grant means for this reader: the
 * free stories left, the last one, "Subscribe to keep reading"…), `subscribe` and `signIn` (the
 * buttons), from the paywall catalogue's `access.*` messages with the account's overrides, so a
 * publisher's amp-mustache templates show `{{data.messages.notice}}` in the reader's language. The
 * locale: the offered locale `locale` names, else the account's default. Without `locale`, the
 * grant is the spec's object as it was.
 */
import "server-only";

import { chooseLocale, directionOf, type Locale } from "@/i18n/locales";
import { translator } from "@/i18n/translate";

import type { Db } from "../../db/client";
import { accountLocales } from "../../i18n/locale-settings";
import { overridesFor } from "../../i18n/overrides";
import type { AccessDecision } from "./access-rule";

type NoticeKey =
  | "access.freeStoriesLeft"
  | "access.lastFreeStory"
  | "access.subscriber"
  | "access.asset"
  | "access.free"
  | "access.loggedIn"
  | "access.signInToRead"
  | "access.registerToRead"
  | "access.subscribeToRead";

/** Which notice a grant gets, and its values. Pure. */
function noticeOf(decision: AccessDecision): { key: NoticeKey; values?: { n: number } } {
  if (!decision.granted) {
    if (decision.why === "login_required") return { key: "access.signInToRead" };
    return { key: decision.why === "registration_required" ? "access.registerToRead" : "access.subscribeToRead" };
  }
  switch (decision.grantReason) {
    case "METERING":
      return decision.data.isLast
        ? { key: "access.lastFreeStory" }
        : { key: "access.freeStoriesLeft", values: { n: decision.data.numberRemaining ?? 0 } };
    case "SUBSCRIBER":
      return { key: "access.subscriber" };
    case "ASSET":
      return { key: "access.asset" };
    case "LOGGED_IN":
      return { key: "access.loggedIn" };
    default:
      return { key: "access.free" };
  }
}

type GrantWords = {
  locale: Locale;
  dir: "ltr" | "rtl";
  messages: { notice: string; subscribe: string; signIn: string };
};

/** The reader's words for `decision` in the offered locale `tag` names (else the account's default). */
export async function grantWords(
  db: Db,
  accountId: number,
  tag: string | null,
  decision: AccessDecision,
): Promise<GrantWords> {
  const { offered, defaultLocale } = await accountLocales(db, accountId);
  const locale = chooseLocale([tag], offered, defaultLocale);
  const t = translator("paywall", locale, await overridesFor(db, accountId, "paywall", locale));
  const notice = noticeOf(decision);
  return {
    locale,
    dir: directionOf(locale),
    messages: { notice: t(notice.key, notice.values), subscribe: t("access.subscribe"), signIn: t("access.signIn") },
  };
}
