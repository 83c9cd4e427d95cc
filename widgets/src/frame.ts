/**
 * The frames' script (served at /widgets/v1/frame.js): the comments, feed, contribution (UGC),
 * page-reactions and newsletter sign-up widgets, rendered from the engagement API of the same origin (docs/engagement.md)
 * with plain DOM calls. Nothing a reader wrote is ever parsed as HTML: text goes in text nodes,
 * links and images only with http(s) addresses. The page's settings come from the JSON block
 * the frame page carries (app/embed/…); the reader's JWT only from the parent page by
 * postMessage (the loader's `accountUserLogin`), checked by origin and window.
 *
 * The shared core is in frame/core.ts; each widget has its own file under frame/. The words are
 * the catalogue's, sent parsed in the settings (translate.ts); the page's `<html lang dir>` is the
 * frame's locale, and frame.css lays out right to left by logical properties. Started as a Web
 * Worker (no `document`), the same file solves the guest captcha.
 */
import { serveWorker } from "./captcha";
import { commentsWidget } from "./frame/comments";
import { initFrame, toParent } from "./frame/core";
import { feedWidget } from "./frame/feed";
import { newsletterWidget } from "./frame/newsletter";
import { reactionsWidget } from "./frame/reactions";
import { type Config } from "./frame/types";
import { ugcWidget } from "./frame/ugc";
import { readableOn, whiteIsTooLight } from "./ops";

if (typeof document === "undefined" && typeof self !== "undefined") {
  serveWorker(self);
} else {
  start();
}

function start(): void {
  const configEl = document.getElementById("masthead-config");
  const app = document.getElementById("app");
  if (!configEl || !app) return;
  const config = JSON.parse(configEl.textContent || "{}") as Config;
  // Read while the script runs: document.currentScript is null once it has.
  const workerUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? null;
  applyTheme(config);
  initFrame(config, app, workerUrl);

  // The frame's title is its name in the frame's locale: the loader names the iframe by it.
  toParent({ type: "ready", title: document.title });

  switch (config.kind) {
    case "comments":
      commentsWidget();
      break;
    case "feed":
      feedWidget();
      break;
    case "ugc":
      ugcWidget();
      break;
    case "reactions":
      reactionsWidget();
      break;
    case "newsletter":
      newsletterWidget();
      break;
  }
}

/** The page's colours and font, as CSS variables on the root, and the widget's kind as its class. */
function applyTheme(config: Config): void {
  const root = document.documentElement;
  const c = config.colors;
  if (c.primary) {
    root.style.setProperty("--primary", c.primary);
    // Text on the primary colour: white, or dark where white would not be readable (WCAG contrast 4.5:1).
    root.style.setProperty("--on-primary", whiteIsTooLight(c.primary) ? "#111" : "#fff");
    // Text in the primary colour (links): a shade of it that reads at 4.5:1 on the background (white
    // unless the page gives one).
    root.style.setProperty("--primary-text", readableOn(c.primary, c.bg || "#fff"));
  }
  if (c.secondary) root.style.setProperty("--secondary", c.secondary);
  if (c.bg) root.style.setProperty("--bg", c.bg);
  if (c.font) root.style.setProperty("--fg", c.font);
  if (config.fontFamily) root.style.setProperty("--font", config.fontFamily + ", system-ui, sans-serif");
  root.classList.add(config.kind);
}
