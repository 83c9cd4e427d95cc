/**
 * Moderators' notices to the signed-in reader (docs/engagement.md "Notices to readers"): a
 * warning, or the words of a ban or suspension, shown once at the top of the comments until the
 * reader acknowledges it. A suspension's end is said in the frame's language and the reader's own
 * time zone (the browser's). Text only: nothing a moderator wrote is parsed as HTML.
 */
import { localTime } from "../local-time";
import { api, base, config, jwt, onSessionChange, readerGeneration, t } from "./core";
import { h } from "./dom";

export type Notice = { id: number; kind: "warning" | "ban" | "suspension"; message: string; until: string | null };

let notices: Notice[] = [];
// Another session: the previous reader's notices are not this one's.
onSessionChange(() => (notices = []));

/** Fetch the reader's notices still to show (none when signed out, or when the call fails). */
export async function loadNotices(): Promise<void> {
  notices = [];
  if (!jwt) return;
  const asked = readerGeneration;
  const answer = await api<{ notices: Notice[] }>("GET", base + "/notices", undefined, { jwt }).catch(() => null);
  if (asked === readerGeneration) notices = (answer && answer.notices) || [];
}

/** The first notice's title, for the frame's live region; null when there is none. */
export function noticeAnnouncement(): string | null {
  const first = notices[0];
  return first ? title(first) : null;
}

function title(notice: Notice): string {
  return notice.kind === "warning" ? t("noticeWarning") : t("noticeModeration");
}

/**
 * The first notice to show, with its acknowledge button; null when none. `onDone` redraws the
 * frame once the reader acknowledged it (the next notice, if any, takes its place).
 */
export function noticeView(onDone: () => void): HTMLElement | null {
  const notice = notices[0];
  if (!notice) return null;
  const box = h("section", { class: "notice", "aria-labelledby": "notice-title", "data-notice": String(notice.id) });
  box.append(h("h3", { id: "notice-title" }, title(notice)));
  if (notice.kind === "suspension" && notice.until)
    box.append(h("p", {}, t("noticeSuspended", { until: localTime(notice.until, config.locale) })));
  if (notice.kind === "ban") box.append(h("p", {}, t("noticeBanned")));
  if (notice.message) box.append(h("p", { class: "notice-message", dir: "auto" }, notice.message));
  const ok = h("button", { class: "btn", type: "button", id: "notice-ok" }, t("noticeAcknowledge"));
  ok.addEventListener("click", () => {
    ok.setAttribute("disabled", "");
    api("POST", base + "/notices/" + notice.id + "/acknowledge", { jwt })
      .catch(() => undefined)
      .then(() => {
        notices = notices.filter((n) => n.id !== notice.id);
        onDone();
      })
      .catch(() => undefined);
  });
  box.append(ok);
  return box;
}
