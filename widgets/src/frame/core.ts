/**
 * The frame's shared core: its settings and the reader's session, the messages with the host
 * page, the frame's height, and calls to the engagement API of the same origin.
 *
 * One frame runs one widget, so this state is the module's own: `initFrame` sets it once, before
 * the widget starts. The reader's JWT comes only from the host page by postMessage (the loader's
 * `accountUserLogin`), checked by origin and window.
 */
import { localTime } from "../local-time";
import { pageId } from "../ops";
import { frameWords, type FrameWords, type T } from "../translate";
import { str } from "./dom";
import { type Config, type Me, type Obj } from "./types";

export let config: Config;
/** The frame's words (../translate.ts): `t` as text, `parts` with nodes among them, `num` a number. */
export let t: T;
export let parts: FrameWords["parts"];
export let num: FrameWords["num"];
/** The element the widget draws into. */
export let app: HTMLElement;
/** The account's API path, and the page's under it. */
export let base: string;
export let pagePath: string;
/** The frame script's own address: the captcha's workers run the same file. */
export let workerUrl: string | null;
/** The reader's JWT from the host page; null when signed out. */
export let jwt: string | null = null;
/** The signed-in reader, as the API knows them (null when signed out or the JWT was refused). */
export let me: Me | null = null;

/**
 * Per-reader state: what each module keeps for the signed-in reader (held comments, notices,
 * counts, what they typed) is dropped when the page signs another reader in, or signs out, without
 * a reload, before the widget loads again for the new session. `readerGeneration` is bumped at
 * each change: an answer asked for an earlier session is not shown.
 */
export let readerGeneration = 0;
let readerId: string | null = null;
const sessionResets: (() => void)[] = [];
const readerResets: (() => void)[] = [];

/**
 * `reset` drops what a module read from the API for the signed-in reader (held comments,
 * notices, their reactions, their feed): run at every change of session (sign-in, sign-out,
 * another JWT); the widget reads it again for the new one.
 */
export function onSessionChange(reset: () => void): void {
  sessionResets.push(reset);
}

/** `reset` drops what the reader typed or was told (a draft, "sent"): run only when another reader takes over. */
export function onReaderChange(reset: () => void): void {
  readerResets.push(reset);
}

let embedded = false;
let userKnown = true;
let lastHeight = 0;
let onUser: () => void = () => {};
let onTopic: (type: string, value: string) => void = () => {};
let onFeedOpen: () => void = () => {};

/** Set the frame's state, report its height as it changes and listen to the host page. */
export function initFrame(settings: Config, root: HTMLElement, scriptUrl: string | null): void {
  config = settings;
  app = root;
  ({ t, parts, num } = frameWords(config.locale, config.messages));
  workerUrl = scriptUrl;
  base = "/api/v1/accounts/" + config.accountId;
  pagePath = base + "/pages/" + pageId(config.pageUrl);
  jwt = null;
  me = null;
  embedded = window.parent !== window && Boolean(config.parentOrigin);
  userKnown = !embedded;

  if (typeof ResizeObserver !== "undefined") new ResizeObserver(reportHeight).observe(app);
  window.addEventListener("load", reportHeight);

  window.addEventListener("message", (event) => {
    if (!embedded || event.source !== window.parent || event.origin !== config.parentOrigin) return;
    const data = event.data as Obj | null;
    if (!data || data.masthead !== "1") return;
    if (data.type === "user") {
      const next = typeof data.jwt === "string" && data.jwt ? data.jwt : null;
      const changed = next !== jwt || !userKnown;
      jwt = next;
      userKnown = true;
      if (changed) onUser();
    } else if (data.type === "ugc_topic") {
      onTopic(str(data.topicType), str(data.topicValue));
    } else if (data.type === "feed_open") {
      onFeedOpen();
    }
  });
}

// ─── Talking to the page ─────────────────────────────────────────────────────────────────────
export function toParent(message: Obj): void {
  if (embedded)
    window.parent.postMessage({ masthead: "1", widget_id: config.widgetId, ...message }, config.parentOrigin!);
}

/**
 * Draw `children` as the frame's content. The control whose `attr` had the focus (or the one
 * whose `attr` is `focus`: a button that lost it by being disabled) gets it back, so a reader on
 * the keyboard stays where they were when an answer redraws the frame.
 */
export function redraw(children: Node[], attr: string, focus?: string): void {
  const had = focus ?? app.querySelector<HTMLElement>("[" + attr + "]:focus")?.getAttribute(attr);
  app.replaceChildren(...children);
  if (had) app.querySelector<HTMLElement>("[" + attr + '="' + had + '"]')?.focus();
}

export function reportHeight(): void {
  const height = Math.ceil(app.getBoundingClientRect().bottom + 2);
  if (height !== lastHeight) {
    lastHeight = height;
    toParent({ type: "resize", height });
  }
}

/** The contribution widget's topic, as the page's `updateUGCTopic` sets it. */
export function setTopicHandler(handler: (type: string, value: string) => void): void {
  onTopic = handler;
}

/** The feed opened again on the page (its toggle or slide button). */
export function setFeedOpenHandler(handler: () => void): void {
  onFeedOpen = handler;
}

export function askLogin(): void {
  toParent({ type: "login" });
}

/**
 * Run `run` once the reader is known (the page's answer, or 1.2 s without one), and again each
 * time the page signs a reader in or out, after the previous session's state is dropped.
 */
export function whenUserKnown(run: () => void): void {
  onUser = () => {
    const asked = ++readerGeneration;
    for (const reset of sessionResets) reset();
    void loadMe().then(() => {
      if (asked !== readerGeneration) return;
      const id = me ? String(me.id) : null;
      if (id !== readerId) for (const reset of readerResets) reset();
      readerId = id;
      run();
    });
  };
  if (userKnown) onUser();
  else
    setTimeout(() => {
      if (!userKnown) {
        userKnown = true;
        onUser();
      }
    }, 1200);
}

async function loadMe(): Promise<void> {
  me = null;
  const asked = jwt;
  if (!asked) return;
  try {
    const answer = await api<{ current_user: Me | null }>("GET", base + "/current_user", undefined, { jwt: asked });
    // An answer for a JWT the page has since replaced is not this reader's.
    if (jwt === asked) me = answer.current_user;
  } catch {
    if (jwt === asked) jwt = null;
  }
}

// ─── HTTP ────────────────────────────────────────────────────────────────────────────────────
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The first detail's issue, when the API gave one ("banned until <ISO time>"). */
    readonly issue: string | null = null,
  ) {
    super(message);
  }
}

export async function api<T>(method: string, path: string, body?: unknown, query: Obj = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, str(v));
  const qs = params.toString();
  const response = await fetch(path + (qs ? "?" + qs : ""), {
    method,
    headers: body instanceof FormData ? {} : { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const data = (await response.json().catch(() => null)) as Obj | null;
  if (!response.ok) {
    const error = data && (data.error as { message?: string; details?: { issue?: unknown }[] } | undefined);
    const detail = error && error.details && error.details[0];
    throw new ApiError(
      response.status,
      (error && error.message) || t("error"),
      detail && typeof detail.issue === "string" ? detail.issue : null,
    );
  }
  return data as T;
}

/**
 * What a failed call tells the reader: the API's message, or the generic error. A ban's 403
 * (issue "banned" or "banned until <ISO time>") is said in the frame's language, its end in the
 * reader's time zone.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return t("error");
  const ban = error.status === 403 && error.issue ? /^banned(?: until (.+))?$/.exec(error.issue) : null;
  if (ban) return ban[1] ? t("noticeSuspended", { until: localTime(ban[1], config.locale) }) : t("noticeBanned");
  return error.message;
}
