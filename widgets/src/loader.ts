/**
 * The widget loader (docs/widgets.md): the one script a publisher's page includes, served at
 * /widgets/v1/loader.js and, for pages written for Metype, /quintype-metype/assets/application.js
 * and /quintype-metype/assets/metype.js. Built by scripts/build-bundles.mjs into an IIFE that
 * defines nothing but `window.talktype`.
 *
 * - `talktype(callback)` runs the callback now (the library is loaded); the queue the page's stub
 *   built before (`talktype.q`, each entry the stub's `arguments`) is drained first, then
 *   `talktype.loaded` is true.
 * - Widgets are iframes of Masthead's frame pages (/embed/<account>/<widget>); their settings come
 *   from the container's `data-masthead-*` attributes, with `data-metype-*` and the spec's
 *   `data-svc-*` as aliases.
 * - A frame that loaded but never said it was ready (the browser refused it: this page's origin is
 *   not one of the publication's hosts, so the frame's `frame-ancestors` leaves it out; or
 *   Masthead could not be reached) gets a notice above it saying so, gone if the frame answers.
 * - The reader's JWT (`accountUserLogin`) reaches frames only by postMessage, addressed to the
 *   frame's origin, never in a URL. Messages from frames are taken only from a frame this loader
 *   made, and only from its origin.
 * - A frame's locale is the server's choice (server/widgets/frame-catalogue.ts): the loader passes
 *   the container's `locale` (`data-svc-locale`…), the original `language` attribute and the
 *   page's `lang`. Its own few words (the iframes' names until the frame says its own, the login
 *   frame's, the refused notice) are the catalogue's, put in by the build (`__LOADER_WORDS__`), in
 *   the locale those name.
 */
import { directionOf, matchLocale, type Locale } from "../../i18n/locales";
import { graphemePrefix } from "../../server/text/graphemes";

type Obj = Record<string, unknown>;
type User = { jwt: string; name?: string; avatar?: string } | null;
type Kind = "comments" | "feed" | "ugc" | "reactions" | "newsletter";
type Widget = {
  kind: Kind;
  frame: HTMLIFrameElement;
  origin: string;
  el: HTMLElement;
  ready: boolean;
  /** What the page shows while the frame was refused or never answered. */
  notice?: HTMLElement;
};
type Queued = ArrayLike<unknown>;
/** A message: text, or [text, argument, text, …] (scripts/build-bundles.mjs loaderWords). */
type Words = Record<Kind | "login" | "refused", string | string[]>;
declare const __LOADER_WORDS__: Record<Locale, Words>;
type Talktype = ((callback?: unknown) => void) & {
  q?: Queued[];
  loaded?: boolean;
  masthead?: string;
  [method: string]: unknown;
};

const VERSION = "1";
/** How long after its load a frame may take to say it is ready before the page says it was refused. */
const REFUSED_AFTER_MS = 4000;
const PREFIXES = ["data-masthead-", "data-metype-", "data-svc-"];
/** The defaults real pages rely on (docs/widgets.md, "Attributes"). */
const DEFAULTS: Record<string, Record<string, string>> = {
  comments: { "primary-color": "#3a9fdd", "bg-color": "transparent", "font-color": "#4a4a4a" },
  feed: { "primary-color": "#3a9fdd", "bg-color": "#fff", "font-color": "#4a4a4a" },
  ugc: { "primary-color": "#3a9fdd", "bg-color": "transparent", "font-color": "#4a4a4a" },
  reactions: { "primary-color": "#3a9fdd", "bg-color": "transparent", "font-color": "#4a4a4a" },
  newsletter: { "primary-color": "#3a9fdd", "bg-color": "transparent", "font-color": "#4a4a4a" },
};
/** Attributes passed on to a frame (as query parameters, snake_case). */
const PASSED = [
  "primary-color",
  "secondary-color",
  "bg-color",
  "font-color",
  "font-family",
  "font-url",
  "publisher",
  "comment-widget-id",
  "window-height",
  "screen-width",
  "topic-type",
  "topic-value",
  "locale",
  "language",
  "newsletter",
];

(function () {
  const w = window as unknown as { talktype?: Talktype };
  const previous = w.talktype;
  // Both loader paths on one page: the first one stays.
  if (previous && previous.masthead) return;

  const script = document.currentScript as HTMLScriptElement | null;
  const scriptOrigin = originOf(script && script.src);
  const widgets: Widget[] = [];
  let user: User = null;
  let topic: { topicType: string; topicValue: string } | null = null;
  let feedOpen = false;
  let counter = 0;

  function originOf(url: string | null | undefined): string | null {
    if (!url) return null;
    try {
      const u = new URL(url, location.href);
      return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
    } catch {
      return null;
    }
  }

  function attr(el: Element, name: string): string | null {
    for (const prefix of PREFIXES) {
      const v = el.getAttribute(prefix + name);
      if (v !== null && v !== "") return v;
    }
    return null;
  }

  /** The locale the container asks for (`locale`, the original `language`), else its page's language; English. */
  function localeOf(el: Element): Locale {
    const page = el.closest("[lang]");
    return (
      matchLocale(attr(el, "locale")) ||
      matchLocale(attr(el, "language")) ||
      matchLocale(page ? page.getAttribute("lang") : null) ||
      "en"
    );
  }

  /** One of the loader's messages in `locale`, its {arguments} filled. */
  function say(locale: Locale, key: keyof Words, values: Record<string, string> = {}): string {
    const message = __LOADER_WORDS__[locale][key];
    if (typeof message === "string") return message;
    return message
      .map((part, i) => (i % 2 ? (Object.prototype.hasOwnProperty.call(values, part) ? values[part] : "") : part))
      .join("");
  }

  function element(target: unknown): HTMLElement | null {
    if (typeof target === "string") return document.getElementById(target) || document.querySelector(target);
    return target instanceof HTMLElement ? target : null;
  }

  function warn(message: string): void {
    if (typeof console !== "undefined") console.warn("[talktype] " + message);
  }

  function post(widget: Widget, message: Obj): void {
    if (widget.frame.contentWindow)
      widget.frame.contentWindow.postMessage({ masthead: VERSION, ...message }, widget.origin);
  }

  function sendUser(widget: Widget): void {
    post(widget, { type: "user", jwt: user ? user.jwt : null, name: user && user.name, avatar: user && user.avatar });
  }

  function mount(kind: Kind, target: unknown): HTMLIFrameElement | null {
    const el = element(target);
    if (!el) {
      warn(kind + ": no container element");
      return null;
    }
    const accountId = attr(el, "account-id");
    const host = originOf(attr(el, "host")) || scriptOrigin;
    if (!accountId || !/^\d+$/.test(accountId) || !host) {
      warn(kind + ": the container needs data-masthead-account-id (and data-masthead-host)");
      return null;
    }
    const params = new URLSearchParams();
    params.set("page_url", attr(el, "page-url") || location.href);
    for (const name of PASSED) {
      const defaults = DEFAULTS[kind]!;
      const value =
        attr(el, name) || (Object.prototype.hasOwnProperty.call(defaults, name) ? defaults[name] : undefined);
      if (value) params.set(name.replace(/-/g, "_"), value);
    }
    const page = el.closest("[lang]");
    const pageLang = page && page.getAttribute("lang");
    if (pageLang) params.set("page_lang", pageLang);
    if (!params.has("window_height")) params.set("window_height", String(window.innerHeight));
    if (!params.has("screen_width")) params.set("screen_width", String(screen.width));
    const id = "masthead-" + kind + "-" + ++counter;
    params.set("widget_id", id);
    params.set("parent_origin", location.origin);
    const frame = document.createElement("iframe");
    frame.src = host + "/embed/" + accountId + "/" + kind + "?" + params.toString();
    frame.id = id;
    frame.name = id;
    // The frame's own title (in the locale it chose, with the account's words) comes with "ready".
    frame.title = attr(el, "title") || say(localeOf(el), kind);
    frame.setAttribute("scrolling", kind === "feed" ? "yes" : "no");
    frame.style.cssText =
      "display:block;width:100%;max-width:100%;border:0;overflow:hidden;color-scheme:normal;background:transparent;height:" +
      (kind === "reactions" ? 72 : 240) +
      "px";
    // A container reused by the page's own code (a single-page app moving on) keeps one frame.
    const old = el.querySelector("iframe[data-masthead-frame]");
    if (old) {
      for (let i = widgets.length - 1; i >= 0; i--) if (widgets[i]!.frame === old) widgets.splice(i, 1);
      old.remove();
    }
    frame.setAttribute("data-masthead-frame", kind);
    const widget: Widget = { kind, frame, origin: host, el, ready: false };
    widgets.push(widget);
    frame.addEventListener("load", () => setTimeout(() => refused(widget), REFUSED_AFTER_MS));
    el.appendChild(frame);
    return frame;
  }

  function refused(widget: Widget): void {
    if (widget.ready || widget.notice || !widget.frame.isConnected) return;
    const notice = document.createElement("p");
    notice.setAttribute("role", "status");
    notice.setAttribute("data-masthead-refused", widget.kind);
    notice.style.cssText =
      "margin:8px 0;padding:8px 12px;border:1px solid #b45309;border-radius:6px;background:#fffbeb;color:#78350f;font:14px/1.4 system-ui,sans-serif";
    const locale = localeOf(widget.el);
    notice.lang = locale;
    notice.dir = directionOf(locale);
    notice.textContent = say(locale, "refused", {
      widget: say(locale, widget.kind),
      origin: location.origin,
      host: widget.origin,
    });
    widget.notice = notice;
    widget.el.insertBefore(notice, widget.frame);
    warn(widget.kind + ": the frame from " + widget.origin + " did not answer on " + location.origin);
  }

  /** The feed waits off screen on the page's end side: the right, or the left on a right-to-left page. */
  function rtl(el: Element): boolean {
    return getComputedStyle(el).direction === "rtl";
  }
  function feedAway(el: Element): string {
    return rtl(el) ? "translateX(-110%)" : "translateX(110%)";
  }

  function openFeed(open: boolean): void {
    feedOpen = open;
    for (const widget of widgets) {
      if (widget.kind !== "feed") continue;
      widget.frame.style.transform = open ? "none" : feedAway(widget.el);
      widget.frame.style.visibility = open ? "visible" : "hidden";
      widget.frame.setAttribute("aria-hidden", open ? "false" : "true");
      const button = widget.el.querySelector("#metype-clickthru, [data-masthead-feed-toggle]");
      if (button) button.setAttribute("aria-expanded", String(open));
      if (open) post(widget, { type: "feed_open" });
    }
  }

  function onMessage(event: MessageEvent): void {
    const data = event.data as Obj | null;
    if (!data || typeof data !== "object" || data.masthead !== VERSION) return;
    let widget: Widget | undefined;
    for (const candidate of widgets) {
      if (candidate.frame.contentWindow === event.source && candidate.origin === event.origin) widget = candidate;
    }
    if (!widget) return;
    switch (data.type) {
      case "ready":
        widget.ready = true;
        if (typeof data.title === "string" && data.title && !attr(widget.el, "title"))
          widget.frame.title = graphemePrefix(data.title, 200);
        if (widget.notice) widget.notice.remove();
        widget.notice = undefined;
        sendUser(widget);
        if (widget.kind === "ugc" && topic) post(widget, { type: "ugc_topic", ...topic });
        break;
      case "resize": {
        const height = Number(data.height);
        if (isFinite(height) && height > 0 && widget.kind !== "feed") {
          widget.frame.style.height = Math.min(Math.ceil(height), 20000) + "px";
        }
        break;
      }
      case "login":
        // The page starts its own login (spec §5 A.4); both names, the original first.
        for (const action of ["svc_login", "masthead_login"]) {
          window.postMessage({ action, widget: widget.kind, widget_id: widget.frame.id }, location.origin);
        }
        break;
      case "close_feed":
        openFeed(false);
        break;
    }
  }
  window.addEventListener("message", onMessage);

  const talktype = function (callback?: unknown) {
    if (typeof callback === "function") {
      try {
        (callback as () => void)();
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  } as Talktype;
  talktype.masthead = VERSION;

  talktype.commentWidgetIframe = (el: unknown) => mount("comments", el);
  talktype.pageReactionsIframe = (el: unknown) => mount("reactions", el);
  talktype.contributionWidgetIframe = (el: unknown) => mount("ugc", el);
  talktype.newsletterWidgetIframe = (el: unknown) => mount("newsletter", el);
  talktype.feedWidgetIframe = (el: unknown) => {
    const frame = mount("feed", el);
    const container = frame && frame.parentElement;
    if (frame && container) {
      // logical-css-exempt: a fixed frame's inline sides follow the host page's direction; the drawer follows the container's.
      const side = rtl(container) ? "left:0;box-shadow:2px" : "right:0;box-shadow:-2px";
      frame.style.cssText =
        "position:fixed;top:0;bottom:0;width:min(400px,100vw);height:100%;border:0;z-index:2147483000;" +
        side +
        " 0 12px rgba(0,0,0,.2);background:#fff;transition:transform .25s ease;visibility:hidden;transform:" +
        feedAway(container);
      frame.setAttribute("aria-hidden", "true");
    }
    return frame;
  };
  talktype.toggleButton = () => openFeed(!feedOpen);
  talktype.slideButton = () => openFeed(false);

  talktype.updateUGCTopic = (value: unknown) => {
    const v = (value || {}) as Obj;
    topic = { topicType: str(v.topicType), topicValue: str(v.topicValue) };
    for (const widget of widgets) if (widget.kind === "ugc") post(widget, { type: "ugc_topic", ...topic });
  };

  talktype.accountUserLogin = (value: unknown) => {
    const v = (value || {}) as Obj;
    if (typeof v.jwt !== "string" || !v.jwt) {
      warn("accountUserLogin needs {jwt}");
      return;
    }
    user = { jwt: v.jwt, name: typeof v.name === "string" ? v.name : undefined };
    if (typeof v.avatar === "string") user.avatar = v.avatar;
    for (const widget of widgets) sendUser(widget);
  };
  talktype.accountUserLogout = () => {
    user = null;
    for (const widget of widgets) sendUser(widget);
  };

  talktype.formLoginIframe = (container: unknown, source: unknown, callback?: unknown) => {
    const el = element(container);
    const src = typeof source === "string" ? source : "";
    const origin = originOf(src);
    if (!el || !origin) {
      warn("formLoginIframe(container, source, callback): a container and an http(s) source are required");
      return null;
    }
    const frame = document.createElement("iframe");
    frame.src = src;
    frame.title = say(localeOf(el), "login");
    frame.style.cssText = "display:block;width:100%;max-width:100%;min-height:480px;border:0";
    let done = false;
    const finish = (detail: Obj) => {
      if (done) return;
      done = true;
      if (typeof callback === "function") (callback as (d: Obj) => void)(detail);
    };
    // The authorize URL ends at the publisher's redirect URI, on this page's origin: once the
    // frame can be read, the login is over and the address holds the code (or an error).
    frame.addEventListener("load", () => {
      let href: string | null = null;
      try {
        href = frame.contentWindow ? frame.contentWindow.location.href : null;
      } catch {
        return; // still on the login pages of another origin
      }
      if (!href || href === "about:blank") return;
      const query = new URL(href).searchParams;
      if (query.get("error")) finish({ error: query.get("error"), url: href });
      else if (query.get("code")) finish({ code: query.get("code"), url: href });
    });
    window.addEventListener("message", (event) => {
      const data = event.data as Obj | null;
      if (event.source === frame.contentWindow && event.origin === origin && data && data.masthead === VERSION) {
        if (data.type === "login_success") finish({ url: str(data.url) });
      }
    });
    el.appendChild(frame);
    return frame;
  };

  talktype.pageMetadataSetter = (accountId: unknown, pageUrl: unknown, metadata: unknown, hostArg?: unknown) => {
    const host = originOf(typeof hostArg === "string" ? hostArg : null) || scriptOrigin;
    if (!host || !/^\d+$/.test(String(accountId))) return Promise.resolve(null);
    const meta = { ...((metadata || {}) as Obj) };
    const metadataJwt = meta.metadata_jwt;
    delete meta.metadata_jwt;
    const body: Obj = { metadata: meta };
    if (typeof metadataJwt === "string") body.metadata_jwt = metadataJwt;
    if (user) body.jwt = user.jwt;
    const url = host + "/api/v1/accounts/" + String(accountId) + "/pages/" + pageId(str(pageUrl) || location.href);
    return fetch(url + "/metadata", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);
  };

  w.talktype = talktype;
  const queue = previous && previous.q ? Array.prototype.slice.call(previous.q) : [];
  talktype.loaded = true;
  talktype.q = [];
  for (const args of queue as Queued[]) talktype(args && args[0]);
})();

/** A page id: URL-safe base64 of encodeURIComponent(url), as the API reads it (docs/engagement.md). */
function pageId(url: string): string {
  return btoa(encodeURIComponent(url)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A string value, or "" for anything else. */
function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}
