/**
 * A newsletter mail, HTML and plain text: a story (./render-elements.ts renders its elements) or a
 * digest of a collection's stories, in the newsletter's design (logo, accent and background
 * colours, a footer with the publisher's postal address) and with a footer link to unsubscribe.
 * Pure.
 *
 * Hand-written tables with inline styles rather than MJML or React Email: the layout is one
 * 600-pixel column, which a table and a handful of inline styles give in every client; MJML would
 * add a compiler (and its dependencies) to every send, React Email a React render per reader.
 *
 * The chrome (the "why you get this" footer, unsubscribe, "Read on the site", "Subscribe to read
 * on", a preview's label) is in the reader's language (`frame.language`: the `mail` catalogue), with
 * that locale's lang and dir on the root; the newsroom's own content (headline, story, digest
 * items) keeps the account's language and direction (`frame.content`), so an English story mailed
 * to an Arabic reader stays left to right inside a right-to-left frame.
 *
 * A mail is compiled once per send, variant and reader locale (full story, or cut at the paywall) into a
 * template whose links are markers (`mhl-<nonce>-<n>`, the nonce random per template so no text of
 * the story can forge one), and personalised per reader (`personalise`): each link becomes the
 * reader's redirected link when the newsletter counts clicks, the unsubscribe link the reader's
 * own, and the open pixel is added when the newsletter counts opens. Ten thousand readers cost
 * ten thousand string replacements, not ten thousand renders.
 */
import { randomBytes } from "node:crypto";

import { z } from "zod";

import { directionOf, type Locale } from "@/i18n/locales";
import type { Translate } from "@/i18n/translate";

import type { TCard } from "../publishing/cards.schema";
import { splitAtPaywall } from "../publishing/paywall-point";
import { graphemePrefix } from "../text/graphemes";
import {
  escapeHtml,
  htmlToText,
  imageBlock,
  MAIL_WIDTH,
  renderElements,
  storyElements,
  STYLES,
  type ElementContext,
} from "./render-elements";

const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

type NewsletterDesign = { logoUrl: string | null; accentColor: string; backgroundColor: string; footer: string };

const ZDesign = z
  .object({
    logoUrl: z
      .string()
      .regex(/^https:\/\/[^\s"'<>]+$/)
      .max(2000)
      .nullish()
      .catch(null),
    accentColor: z.string().regex(COLOUR).catch("#1d4ed8"),
    backgroundColor: z.string().regex(COLOUR).catch("#f3f4f6"),
    footer: z.string().max(2000).catch(""),
  })
  .partial();

/** The stored design (newsletters.design), each field checked; anything unusable falls back to the default. */
export function parseDesign(value: unknown): NewsletterDesign {
  const parsed = ZDesign.safeParse(value && typeof value === "object" ? value : {});
  const d = parsed.success ? parsed.data : {};
  return {
    logoUrl: d.logoUrl ?? null,
    accentColor: d.accentColor ?? "#1d4ed8",
    backgroundColor: d.backgroundColor ?? "#f3f4f6",
    footer: d.footer ?? "",
  };
}

/** A compiled mail: HTML and text with link markers, and the URLs they stand for. */
export type MailTemplate = { html: string; text: string; urls: string[]; nonce: string };

/** What one reader's copy needs: the link each URL becomes, the reader's unsubscribe link, the pixel. */
type ReaderLinks = { link: (url: string) => string; unsubscribeUrl: string; openPixelUrl: string | null };

class Links {
  readonly nonce = randomBytes(8).toString("hex");
  readonly urls: string[] = [];
  private readonly index = new Map<string, number>();
  /** The marker of a URL the reader's copy replaces. */
  mark(url: string): string {
    let n = this.index.get(url);
    if (n === undefined) {
      n = this.urls.length;
      this.urls.push(url);
      this.index.set(url, n);
    }
    return `mhl-${this.nonce}-${n}`;
  }
  get unsubscribe() {
    return `mhl-${this.nonce}-u`;
  }
  get pixel() {
    return `mhl-${this.nonce}-p`;
  }
}

/** One reader's copy of a template. */
export function personalise(template: MailTemplate, reader: ReaderLinks): { html: string; text: string } {
  const marker = new RegExp(`mhl-${template.nonce}-(\\d+|u|p)`, "g");
  const resolve = (key: string) =>
    key === "u"
      ? reader.unsubscribeUrl
      : key === "p"
        ? (reader.openPixelUrl ?? "")
        : reader.link(template.urls[Number(key)]!);
  const pixel = reader.openPixelUrl
    ? `<img src="${escapeHtml(reader.openPixelUrl)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px;">`
    : "";
  const html = template.html
    .replace(`<!--${template.nonce}-pixel-->`, pixel)
    .replace(marker, (_, key: string) => escapeHtml(resolve(key)));
  const text = template.text.replace(marker, (_, key: string) => resolve(key));
  return { html, text };
}

/** The headers of every newsletter mail: one-click unsubscribe (RFC 8058), the sender's reply-to. */
/** The From of every mail of a newsletter: "Name" <address>, with nothing that could break the header. */
export function fromHeader(name: string, address: string): string {
  const clean = name.replace(/["\\\r\n<>]/g, "").trim();
  return clean ? `"${clean}" <${address}>` : address;
}

export function newsletterHeaders(args: { unsubscribeUrl: string; replyTo?: string | null }): Record<string, string> {
  return {
    "List-Unsubscribe": `<${args.unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    ...(args.replyTo ? { "Reply-To": args.replyTo.replace(/[\r\n]/g, "") } : {}),
  };
}

/** A subject on one line, at most 250 characters. */
export function subjectLine(subject: string): string {
  const line = subject.replace(/[\r\n\t]+/g, " ").trim();
  return graphemePrefix(line, 250);
}

/** The reader's language for the chrome. */
export type MailLanguage = { locale: Locale; t: Translate<"mail"> };

export type MailFrame = {
  language: MailLanguage;
  /** The newsroom's language: the account's default locale. */
  contentLocale: Locale;
  newsletterName: string;
  publisherName: string;
  design: NewsletterDesign;
  /** "You receive … because you subscribed to …" */
  preheader?: string;
};

const SANS = "font-family:Arial,Helvetica,sans-serif;";

const langDir = (locale: Locale) => `lang="${locale}" dir="${directionOf(locale)}"`;
const align = (locale: Locale) => `text-align:${directionOf(locale) === "rtl" ? "right" : "left"};`;

function layout(frame: MailFrame, links: Links, body: string): string {
  const { design, language } = frame;
  const { t, locale } = language;
  const logo = design.logoUrl
    ? `<img src="${escapeHtml(design.logoUrl)}" height="40" alt="${escapeHtml(frame.publisherName)}" style="display:block;border:0;height:40px;width:auto;">`
    : `<span style="${SANS}font-size:20px;font-weight:bold;color:#111827;">${escapeHtml(frame.publisherName)}</span>`;
  const address = design.footer
    ? `<p style="margin:0 0 8px;">${escapeHtml(design.footer).replace(/\n/g, "<br>")}</p>`
    : "";
  return `<!doctype html>
<html ${langDir(locale)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(frame.newsletterName)}</title></head>
<body style="margin:0;padding:0;background:${design.backgroundColor};" ${langDir(locale)}>
${frame.preheader ? `<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(frame.preheader)}</div>` : ""}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${design.backgroundColor};" ${langDir(locale)}>
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="${MAIL_WIDTH}" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:${MAIL_WIDTH}px;table-layout:fixed;background:#ffffff;">
<tr><td style="padding:20px 24px;border-bottom:4px solid ${design.accentColor};">${logo}<div style="${SANS}font-size:13px;color:#6b7280;margin-top:4px;">${escapeHtml(frame.newsletterName)}</div></td></tr>
<tr><td style="padding:24px;overflow-wrap:anywhere;word-break:break-word;${align(frame.contentLocale)}" ${langDir(frame.contentLocale)}>
${body}
</td></tr>
<tr><td style="padding:20px 24px;background:#f9fafb;${SANS}font-size:12px;line-height:1.5;color:#6b7280;overflow-wrap:anywhere;${align(locale)}">
${address}<p style="margin:0;">${escapeHtml(t("newsletterWhy", { newsletter: frame.newsletterName, publisher: frame.publisherName }))} <a href="${links.unsubscribe}" style="color:#6b7280;text-decoration:underline;">${escapeHtml(t("unsubscribe"))}</a></p>
</td></tr>
</table>
<!--${links.nonce}-pixel-->
</td></tr></table>
</body></html>`;
}

function footerText(frame: MailFrame, links: Links): string {
  const { t } = frame.language;
  return [
    "-- ",
    t("newsletterWhy", { newsletter: frame.newsletterName, publisher: frame.publisherName }),
    ...(frame.design.footer ? [frame.design.footer] : []),
    t("unsubscribeLine", { url: links.unsubscribe }),
  ].join("\n");
}

function elementContext(links: Links, frame: MailFrame, imageUrl: (key: string) => string): ElementContext {
  return { imageUrl, link: (url) => links.mark(url), accent: frame.design.accentColor, t: frame.language.t };
}

/** A block of the reader's language inside the newsroom's content (the story's tail). */
const chrome = (frame: MailFrame, html: string) =>
  frame.language.locale === frame.contentLocale
    ? html
    : `<div ${langDir(frame.language.locale)} style="${align(frame.language.locale)}">${html}</div>`;

const button = (href: string, label: string, accent: string) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 20px;"><tr><td style="background:${accent};border-radius:4px;">` +
  `<a href="${href}" style="display:inline-block;padding:12px 20px;${SANS}font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;">${escapeHtml(label)}</a></td></tr></table>`;

type MailStory = {
  headline: string;
  subheadline: string | null;
  /** Stored HTML (sanitised at save). */
  summary: string | null;
  url: string;
  heroImage: { url: string; metadata: unknown; caption: string | null } | null;
  cards: unknown;
  /**
   * The story's paywall point (../publishing/paywall-point.ts: its own, else the account's
   * default; null: none, all of it free): what the "cut" variant keeps.
   */
  paywallPoint: number | null;
};

/** A story's stored cards, those that are objects (the JSON column is not trusted to be an array). */
function cardsOf(cards: unknown): TCard[] {
  if (!Array.isArray(cards)) return [];
  return cards.filter((card): card is TCard => typeof card === "object" && card !== null);
}

/**
 * A story's mail. `variant`: "full" for readers with access, "cut" for readers without (the free
 * part: the elements before the story's paywall point, as on every channel; then "Subscribe to read on", linking to `subscribeUrl`).
 */
export function compileStoryMail(args: {
  frame: MailFrame;
  story: MailStory;
  variant: "full" | "cut";
  subscribeUrl: string;
  imageUrl: (key: string) => string;
}): MailTemplate {
  const { frame, story } = args;
  const links = new Links();
  const ctx = elementContext(links, frame, args.imageUrl);
  const { t } = frame.language;
  const all = storyElements(story.cards);
  const elements =
    args.variant === "full" ? all : storyElements(splitAtPaywall(cardsOf(story.cards), story.paywallPoint).free);
  const body = renderElements(elements, ctx);
  const storyLink = links.mark(story.url);
  const headline = `<h1 style="margin:0 0 8px;${SANS}font-size:28px;line-height:1.25;color:#111827;"><a href="${storyLink}" style="color:#111827;text-decoration:none;">${escapeHtml(story.headline)}</a></h1>`;
  const sub = story.subheadline
    ? `<p style="margin:0 0 16px;${SANS}font-size:18px;line-height:1.4;color:#4b5563;">${escapeHtml(htmlToText(story.subheadline))}</p>`
    : "";
  const hero = story.heroImage
    ? imageBlock(
        {
          src: story.heroImage.url,
          metadata: story.heroImage.metadata,
          alt: story.headline,
          caption: story.heroImage.caption,
        },
        ctx,
      )
    : null;
  const tail = chrome(
    frame,
    args.variant === "cut"
      ? `<p style="${STYLES.p}font-weight:bold;">${escapeHtml(t("newsletterForSubscribers"))}</p>` +
          button(links.mark(args.subscribeUrl), t("newsletterSubscribe"), frame.design.accentColor)
      : `<p style="${STYLES.p}"><a href="${storyLink}" style="color:${frame.design.accentColor};">${escapeHtml(t("newsletterReadOnSite"))}</a></p>`,
  );
  const html = layout(frame, links, [headline, sub, hero?.html ?? "", body.html, tail].join("\n"));
  const text = [
    story.headline,
    ...(story.subheadline ? [htmlToText(story.subheadline)] : []),
    "",
    ...(hero?.text ? [hero.text, ""] : []),
    body.text,
    "",
    args.variant === "cut"
      ? `${t("newsletterForSubscribers")} ${t("newsletterSubscribeLine", { url: links.mark(args.subscribeUrl) })}`
      : t("newsletterReadOnSiteLine", { url: storyLink }),
    "",
    footerText(frame, links),
  ].join("\n");
  return { html, text, urls: links.urls, nonce: links.nonce };
}

type DigestStory = {
  headline: string;
  summary: string | null;
  url: string;
  image: { url: string; metadata: unknown } | null;
};

/** A digest: the collection's top stories, each a headline, a summary, an image and a link. */
export function compileDigestMail(args: {
  frame: MailFrame;
  title: string;
  stories: readonly DigestStory[];
}): MailTemplate {
  const { frame } = args;
  const links = new Links();
  const ctx = elementContext(links, frame, (key) => key);
  const readStory = frame.language.t("newsletterReadStory");
  const items = args.stories.map((story) => {
    const href = links.mark(story.url);
    const image = story.image
      ? imageBlock({ src: story.image.url, metadata: story.image.metadata, alt: story.headline, href: story.url }, ctx)
          .html
      : "";
    const summary = story.summary ? htmlToText(story.summary) : "";
    return {
      html:
        `<div style="margin:0 0 28px;">${image}<h2 style="${STYLES.h3}margin-top:0;"><a href="${href}" style="color:#111827;text-decoration:none;">${escapeHtml(story.headline)}</a></h2>` +
        (summary ? `<p style="${STYLES.p}">${escapeHtml(summary)}</p>` : "") +
        chrome(
          frame,
          `<a href="${href}" style="${SANS}font-size:14px;color:${frame.design.accentColor};">${escapeHtml(readStory)}</a>`,
        ) +
        `</div>`,
      text: [story.headline, ...(summary ? [summary] : []), href].join("\n"),
    };
  });
  const title = `<h1 style="margin:0 0 20px;${SANS}font-size:24px;color:#111827;">${escapeHtml(args.title)}</h1>`;
  const html = layout(frame, links, title + items.map((i) => i.html).join("\n"));
  const text = [args.title, "", ...items.map((i) => `${i.text}\n`), footerText(frame, links)].join("\n");
  return { html, text, urls: links.urls, nonce: links.nonce };
}
