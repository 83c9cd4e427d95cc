/**
 * The widget frames' pages (docs/widgets.md): a bare HTML shell per widget (`comments`, `feed`,
 * `ugc`, `reactions`, `newsletter`) that loads the frames' script and stylesheet from Masthead, with the page's
 * settings as a JSON block (never executed), a strict Content-Security-Policy (scripts only from
 * Masthead, no inline script or style) and `frame-ancestors` limited to the publication's hosts.
 * The settings carry the frame's locale and its words, parsed (./frame-catalogue.ts); `<html lang
 * dir>` and the title follow the locale. The scripts themselves are built from widgets/src
 * (scripts/build-bundles.mjs).
 */
import "server-only";

import { z } from "zod";

import { directionOf } from "@/i18n/locales";
import { translator } from "@/i18n/translate";

import type { Db } from "../db/client";
import { moderationSettingsOf } from "../engagement/moderation/settings";
import { getPublisher } from "../publishing/publisher";
import { escapeHtml } from "../security/html";
import { FRAME_CSS, FRAME_CSS_HASH, FRAME_JS, FRAME_JS_HASH, LOADER_JS } from "./bundles.generated";
import { frameAccountLocales, frameLocale, frameMessages, frameOverrides } from "./frame-catalogue";

export const WIDGET_KINDS = ["comments", "feed", "ugc", "reactions", "newsletter"] as const;
type WidgetKind = (typeof WIDGET_KINDS)[number];

const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(rgb|hsl)a?\([0-9\s.,%/a-z]{1,60}\))$/;
/** A cosmetic setting that is not valid is dropped (the default applies), never an error. */
const lenient = (schema: z.ZodString) => schema.optional().catch(undefined);
const color = lenient(z.string().regex(COLOR));
/** A BCP 47 tag as pages write them ("ar", "pt-BR", "zh-Hant-TW", "es_MX"); anything else is dropped. */
const languageTag = lenient(z.string().regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,6}$/));

function isHttpUrl(value: string, httpsOnly = false): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || (!httpsOnly && url.protocol === "http:")) && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const ZFrameQuery = z.object({
  page_url: z
    .string()
    .max(2048)
    .refine((s) => isHttpUrl(s), "must be an absolute http(s) URL"),
  widget_id: lenient(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)),
  parent_origin: lenient(
    z
      .string()
      .max(300)
      .refine((s) => isHttpUrl(s) && new URL(s).origin === s),
  ),
  primary_color: color,
  secondary_color: color,
  bg_color: color,
  font_color: color,
  font_family: lenient(z.string().regex(/^[A-Za-z0-9 ,'"_-]{1,100}$/)),
  font_url: lenient(
    z
      .string()
      .max(500)
      .refine((s) => isHttpUrl(s, true)),
  ),
  publisher: lenient(z.string().max(100)),
  topic_type: lenient(z.string().max(50)),
  topic_value: lenient(z.string().max(1000)),
  /** The container's `data-svc-locale` (or data-masthead-/data-metype-locale): the locale it asks for. */
  locale: languageTag,
  /** The original embed code's `language` attribute: the same, read after `locale`. */
  language: languageTag,
  /** The language of the host page around the container (its closest `lang`, normally `<html lang>`). */
  page_lang: languageTag,
  comment_widget_id: lenient(z.string().max(100)),
  window_height: lenient(z.string().max(10)),
  screen_width: lenient(z.string().max(10)),
  /** The newsletter widget: the one newsletter (its slug) it offers; all the account's open ones without it. */
  newsletter: lenient(
    z
      .string()
      .max(60)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  ),
});
type TFrameQuery = z.output<typeof ZFrameQuery>;

/** `frame-ancestors`: Masthead itself and the publication's hosts, any port (scheme as the frame's, or https). */
function frameAncestors(hosts: readonly string[]): string {
  const sources = hosts.filter((h) => /^[a-z0-9.-]+$/.test(h)).map((h) => `${h}:*`);
  return ["'self'", ...sources].join(" ");
}

function frameCsp(hosts: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self' https:",
    "font-src 'self' https: data:",
    "img-src 'self' https: data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(hosts)}`,
  ].join("; ");
}

/** The catalogue's message that names each widget (the frame's title; the loader's iframe title). */
const TITLES = {
  comments: "comments",
  feed: "feedTitle",
  ugc: "ugcTitle",
  reactions: "reactionsOnPage",
  newsletter: "newsletterTitle",
} as const satisfies Record<WidgetKind, string>;

/**
 * The newsletters the newsletter widget offers: the account's that readers may join without a plan
 * (not archived, not for paying subscribers), or only the one `slug` names.
 */
function openNewsletters(db: Db, accountId: number, slug: string | undefined) {
  return db.newsletter.findMany({
    where: { accountId, archivedAt: null, audience: { not: "PAYING" }, ...(slug ? { slug } : {}) },
    select: { slug: true, name: true, description: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 20,
  });
}

/** The HTML of a frame, with its headers. */
export async function renderFramePage(
  db: Db,
  args: { accountId: number; kind: WidgetKind; query: TFrameQuery; appUrl: string },
): Promise<Response> {
  const { accountId, kind, query } = args;
  const [publisher, moderation, locales] = await Promise.all([
    getPublisher(db, accountId, { appUrl: args.appUrl }),
    moderationSettingsOf(db, accountId),
    frameAccountLocales(db, accountId),
  ]);
  const locale = frameLocale(locales, { locale: query.locale, language: query.language, pageLang: query.page_lang });
  const overrides = await frameOverrides(db, accountId, locale);
  const title = translator("widgets", locale, overrides.raw)(TITLES[kind]);
  const config = {
    kind,
    accountId,
    pageUrl: query.page_url,
    widgetId: query.widget_id ?? `masthead-${kind}`,
    parentOrigin: query.parent_origin ?? null,
    locale,
    guestsAllowed: moderation.guestCommentsAllowed,
    confidentialAllowed: moderation.confidentialCommentsAllowed,
    topicType: query.topic_type ?? "",
    topicValue: query.topic_value ?? "",
    publisher: query.publisher ?? publisher.name,
    colors: {
      primary: query.primary_color,
      secondary: query.secondary_color,
      bg: query.bg_color,
      font: query.font_color,
    },
    fontFamily: query.font_family ?? null,
    ...(kind === "newsletter" ? { newsletters: await openNewsletters(db, accountId, query.newsletter) } : {}),
    messages: frameMessages(locale, overrides.parsed),
  };
  // JSON inside <script type="application/json"> is data, never run; "<" escaped so no text ends the element.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  const html = `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/widgets/v1/frame.css?v=${FRAME_CSS_HASH}">
${query.font_url ? `<link rel="stylesheet" href="${escapeHtml(query.font_url)}">\n` : ""}<script id="masthead-config" type="application/json">${json}</script>
<script src="/widgets/v1/frame.js?v=${FRAME_JS_HASH}" defer></script>
</head>
<body>
<main id="app" aria-live="off"></main>
</body>
</html>
`;
  return htmlPage(html, {
    "Content-Security-Policy": frameCsp(publisher.publicationHosts),
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cache-Control": "no-cache",
  });
}

/** A page of the widgets' own: HTML (never sniffed as anything else), with its `headers`. */
export function htmlPage(html: string, headers: Record<string, string>): Response {
  return new Response(html, {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff", ...headers },
  });
}

export type WidgetAsset = "loader" | "frame.js" | "frame.css";

/** A widget script or stylesheet. `version` given and current: cached for good (the name changes with it). */
export function widgetAsset(asset: WidgetAsset, version?: string | null): Response {
  const [body, type, hash] =
    asset === "loader"
      ? [LOADER_JS, "text/javascript; charset=utf-8", null]
      : asset === "frame.js"
        ? [FRAME_JS, "text/javascript; charset=utf-8", FRAME_JS_HASH]
        : [FRAME_CSS, "text/css; charset=utf-8", FRAME_CSS_HASH];
  const immutable = hash !== null && version === hash;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": type,
      "X-Content-Type-Options": "nosniff",
      // The loader's path never changes: a short cache, refreshed in the background.
      "Cache-Control": immutable
        ? "public, max-age=31536000, immutable"
        : "public, max-age=300, stale-while-revalidate=86400",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
