/**
 * The signed-in reader's e-mail notifications (docs/engagement.md "Notifications to readers"): a
 * disclosure under the "Signed in as" line. For each kind (replies, mentions, moderators'
 * decisions): at once, a daily digest, or off; saved as soon as it is chosen
 * (PUT …/notifications/preferences), and said in a status line. Choosing the digest also sends
 * the browser's time zone, so the digest comes at 07:00 on the reader's clocks. Read when first
 * opened, so a page view costs no call; kept across the thread's redraws.
 */
import { type StringKey } from "../translate";
import { api, base, errorText, jwt, reportHeight, t } from "./core";
import { h } from "./dom";

type Choice = "off" | "immediate" | "digest";
type Kind = "replies" | "mentions" | "decisions";
type Answer = { preferences: Record<Kind, Choice>; email_on_file: boolean; time_zone?: string | null };

/** The browser's IANA time zone ("Europe/Madrid"), when it says. */
function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

const KINDS: [Kind, StringKey][] = [
  ["replies", "notifyReplies"],
  ["mentions", "notifyMentions"],
  ["decisions", "notifyDecisions"],
];
const CHOICES: [Choice, StringKey][] = [
  ["immediate", "notifyImmediate"],
  ["digest", "notifyDigest"],
  ["off", "notifyOff"],
];

const state: { open: boolean; answer: Answer | null; jwt: string | null; status: string } = {
  open: false,
  answer: null,
  jwt: null,
  status: "",
};

const path = () => base + "/notifications/preferences";

/** The disclosure, as it was left (open or closed, the choices read). */
export function notificationSettings(): HTMLElement {
  if (state.jwt !== jwt) Object.assign(state, { open: false, answer: null, jwt, status: "" });
  const details = h("details", { class: "notify", id: "notify-settings" }) as HTMLDetailsElement;
  const body = h("div", { class: "notify-body" });
  details.append(h("summary", {}, t("notifyTitle")), body);
  details.open = state.open;
  const fill = () => {
    body.replaceChildren(...content());
    reportHeight();
  };
  details.addEventListener("toggle", () => {
    state.open = details.open;
    if (details.open && !state.answer) {
      api<Answer>("GET", path(), undefined, { jwt })
        .then((answer) => {
          state.answer = answer;
          fill();
        })
        .catch((error: unknown) => {
          state.status = errorText(error);
          fill();
        });
    }
    reportHeight();
  });
  fill();
  return details;
}

function content(): Node[] {
  const status = h("p", { class: "meta", role: "status", id: "notify-status" }, state.status);
  const answer = state.answer;
  if (!answer) return [state.status ? status : h("p", { class: "meta" }, t("loading"))];
  const rows = KINDS.map(([kind, label]) => {
    const id = "notify-" + kind;
    const select = h("select", { id, name: kind }) as HTMLSelectElement;
    for (const [value, key] of CHOICES) select.append(h("option", { value }, t(key)));
    select.value = answer.preferences[kind];
    select.addEventListener("change", () => {
      const chosen = select.value as Choice;
      status.textContent = t("notifySaving");
      const zone = chosen === "digest" ? browserZone() : undefined;
      const save = (time_zone?: string) =>
        api<Answer>("PUT", path(), { jwt, preferences: { [kind]: chosen }, ...(time_zone ? { time_zone } : {}) });
      // A zone the server does not know must not cost the reader their choice: saved without it.
      save(zone)
        .catch((error: unknown) => {
          if (zone) return save();
          throw error;
        })
        .then((saved) => {
          state.answer = saved;
          state.status = t("notifySaved");
          status.textContent = state.status;
        })
        .catch((error: unknown) => {
          select.value = answer.preferences[kind];
          state.status = errorText(error);
          status.textContent = state.status;
        });
    });
    return h("div", { class: "notify-row" }, h("label", { for: id }, t(label)), select);
  });
  const nodes: Node[] = [h("p", { class: "meta" }, t("notifyIntro")), ...rows];
  if (!answer.email_on_file) nodes.push(h("p", { class: "notice" }, t("notifyNoEmail")));
  nodes.push(status);
  return nodes;
}
