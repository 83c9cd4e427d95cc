/**
 * The demo article (GET /demo/article, served by `npm start`): a publisher's page on the demo
 * publisher that embeds every widget the way docs/widgets.md tells publishers to, with the
 * loader's queue stub. Its "sign in" buttons stand for the publisher's own login: the page signs
 * a reader JWT with the demo account's shared key, which is public (README), as a publisher's back
 * end would with its own. Only the demo account is ever used; without it the page is 404.
 */
import "server-only";

import { SignJWT } from "jose";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { escapeHtml } from "../security/html";
import { DEMO } from "../seed/demo";
import { htmlPage } from "./frame-page";

const READERS = [
  { id: "demo-reader-ada", name: "Ada Reader" },
  { id: "demo-reader-ben", name: "Ben Reader" },
];

export async function renderDemoArticle(db: Db, args: { appUrl: string; now: Date }): Promise<Response> {
  const account = await db.account.findUnique({
    where: { slug: DEMO.account.slug },
    select: { id: true, name: true, jwtSecret: true },
  });
  if (!account || account.jwtSecret !== DEMO.jwtSecret)
    throw new AppError("NOT_FOUND", "The demo publisher is not set up here.");
  const key = new TextEncoder().encode(account.jwtSecret);
  const exp = Math.floor(args.now.getTime() / 1000) + 4 * 3600;
  const readers = await Promise.all(
    READERS.map(async (r) => ({
      ...r,
      jwt: await new SignJWT({ id: r.id, name: r.name })
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(exp)
        .sign(key),
    })),
  );
  // The widgets come from the address the page was opened at (the loader's own origin: no host
  // attribute), so the demo works by IP, by another name or behind a proxy; the thread is the
  // article's canonical URL wherever it is read.
  const pageUrl = escapeHtml(`${args.appUrl.replace(/\/+$/, "")}/demo/article`);
  const json = JSON.stringify(readers).replace(/</g, "\\u003c");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<title>A city votes on its night buses · ${escapeHtml(account.name)}</title>
<style>
body { margin: 0; font: 17px/1.6 Georgia, serif; color: #222; background: #fafafa; }
header, main, footer { max-width: 720px; margin: 0 auto; padding: 16px; }
header { border-bottom: 3px solid #222; font: 700 22px/1.2 system-ui, sans-serif; }
.login { font: 14px system-ui, sans-serif; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 16px 0; }
.login button { font: inherit; padding: 6px 12px; }
#feed-metype-container button { position: fixed; right: 16px; bottom: 16px; font: 600 14px system-ui, sans-serif; padding: 10px 14px; border-radius: 20px; border: 0; background: #1d6fa5; color: #fff; }
</style>
</head>
<body>
<header>${escapeHtml(account.name)}</header>
<main>
  <h1>A city votes on its night buses</h1>
  <p>The council meets tonight to decide whether the night bus network keeps running after midnight.
  Readers have written in by the hundred; here is what the plan says, and what it costs.</p>
  <div id="metype-page-reactions-container-1" data-metype-account-id="${account.id}" data-metype-page-url="${pageUrl}"></div>
  <p>This page is Masthead's demo of its widgets: the comments below, the reactions above, the activity
  feed (bottom right) and the contribution form are loaded by one script, exactly as a publisher's page
  would load them (docs/widgets.md).</p>
  <div class="login" id="demo-login">
    <span id="demo-who">Reading as a guest.</span>
    <button type="button" data-reader="0">Sign in as Ada</button>
    <button type="button" data-reader="1">Sign in as Ben</button>
    <button type="button" id="demo-logout">Sign out</button>
  </div>
  <h2>Comments</h2>
  <div id="comments" class="iframe-container" data-masthead-account-id="${account.id}" data-masthead-page-url="${pageUrl}" data-masthead-primary-color="#3a9fdd"></div>
  <h2>Send us your story</h2>
  <div id="metype-contribution-1" data-masthead-account-id="${account.id}" data-masthead-page-url="${pageUrl}" data-masthead-topic-type="tag" data-masthead-topic-value="night-buses"></div>
  <div id="feed-metype-container" class="feed-iframe-container" data-metype-account-id="${account.id}" data-metype-page-url="${pageUrl}" data-metype-publisher="${escapeHtml(account.name)}">
    <button type="button" id="metype-clickthru" aria-expanded="false">Activity</button>
  </div>
</main>
<footer><small>Demo readers sign in with JWTs this page signs with the demo publisher's public shared key.</small></footer>
<script>
window.talktype = window.talktype || function (f) { if (talktype.loaded) f(); else (talktype.q = talktype.q || []).push(arguments); };
</script>
<script src="/widgets/v1/loader.js" async></script>
<script>
(function () {
  var readers = ${json};
  talktype(function () {
    talktype.commentWidgetIframe(document.getElementById("comments"));
    talktype.pageReactionsIframe(document.getElementById("metype-page-reactions-container-1"));
    talktype.contributionWidgetIframe(document.getElementById("metype-contribution-1"));
    talktype.feedWidgetIframe(document.getElementById("feed-metype-container"));
  });
  document.getElementById("metype-clickthru").addEventListener("click", function () { talktype(function () { talktype.toggleButton(); }); });
  document.querySelectorAll("[data-reader]").forEach(function (button) {
    button.addEventListener("click", function () {
      var r = readers[Number(button.getAttribute("data-reader"))];
      talktype(function () { talktype.accountUserLogin({ name: r.name, jwt: r.jwt }); });
      document.getElementById("demo-who").textContent = "Signed in as " + r.name + ".";
    });
  });
  document.getElementById("demo-logout").addEventListener("click", function () {
    talktype(function () { talktype.accountUserLogout(); });
    document.getElementById("demo-who").textContent = "Reading as a guest.";
  });
  window.addEventListener("message", function (event) {
    if (event.origin === location.origin && event.data && event.data.action === "masthead_login") {
      document.getElementById("demo-login").scrollIntoView({ behavior: "smooth" });
      document.getElementById("demo-who").textContent = "Sign in to do that: pick a demo reader.";
    }
  });
})();
</script>
</body>
</html>
`;
  return htmlPage(html, { "Cache-Control": "no-store" });
}
