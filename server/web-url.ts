/**
 * The one rule for URLs Masthead stores and later requests itself (webhook endpoints) or hands to
 * readers' browsers (links and media of stories, avatars, metadata links): an absolute `http:` or
 * `https:` URL (`mailto:` only where the caller allows it: anchors in story HTML), without
 * whitespace or control characters, without a user name or password, kept in the WHATWG parser's
 * normalised form (`new URL(input).href`), so what the dashboard shows is what is requested.
 *
 * Why refuse instead of cleaning: the URL parser silently drops TAB, CR and LF anywhere in a URL
 * and trims spaces and controls at its ends, so "https://a.example/x\r\ny" is requested as
 * "https://a.example/xy". Storing the input as sent would show one URL and request another.
 * Credentials are refused because "https://news.example@evil.example/" reads as a link to
 * news.example. Relative and protocol-relative URLs ("//evil.example") are not absolute: refused.
 *
 * Pure and zod-only: schema files (and the dashboard's forms through them) import it.
 */
import { z } from "zod";

/** Longest URL a story element, metadata link or avatar may hold, before and after normalising. */
const WEB_URL_MAX_LENGTH = 2_000;

type WebUrlOptions = {
  /** Also accept `mailto:` (anchors in sanitised HTML only). */
  mailto?: boolean;
  /** Default WEB_URL_MAX_LENGTH; checked on the input and on the normalised form. */
  maxLength?: number;
};

type WebUrlCheck = { ok: true; href: string } | { ok: false; issue: string };

/** Controls (C0, DEL, C1), format characters (zero-width, bidi overrides), separators and whitespace. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\s]/u;

const WEB_URL_ISSUES = {
  invisible: "must not contain spaces or control characters",
  notAbsolute: "must be an absolute http:// or https:// URL",
  credentials: "must not contain a user name or password",
  tooLong: (max: number) => `must be at most ${max} characters`,
} as const;

/** The normalised URL, or why `input` is not one Masthead stores. */
export function checkWebUrl(input: string, options: WebUrlOptions = {}): WebUrlCheck {
  const max = options.maxLength ?? WEB_URL_MAX_LENGTH;
  if (input.length > max) return { ok: false, issue: WEB_URL_ISSUES.tooLong(max) };
  if (INVISIBLE.test(input)) return { ok: false, issue: WEB_URL_ISSUES.invisible };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, issue: WEB_URL_ISSUES.notAbsolute };
  }
  const web = url.protocol === "https:" || url.protocol === "http:";
  if (!web && !(options.mailto === true && url.protocol === "mailto:"))
    return { ok: false, issue: WEB_URL_ISSUES.notAbsolute };
  if (url.username || url.password) return { ok: false, issue: WEB_URL_ISSUES.credentials };
  // Percent-encoding and punycode can lengthen a URL: the stored form must fit too.
  if (url.href.length > max) return { ok: false, issue: WEB_URL_ISSUES.tooLong(max) };
  return { ok: true, href: url.href };
}

/**
 * A URL that arrives as a claim (a publisher's reader token, a login provider's profile): its
 * normalised form when it passes checkWebUrl, otherwise null (a `javascript:` avatar is dropped,
 * not refused: the rest of the claims still sign the reader in).
 */
export function webUrlOrNull(input: string | null | undefined, options: WebUrlOptions = {}): string | null {
  if (!input) return null;
  const result = checkWebUrl(input, options);
  return result.ok ? result.href : null;
}

/** A zod string that must pass checkWebUrl and comes out normalised. */
export function zWebUrl(options: WebUrlOptions = {}) {
  return z.string().transform((value, ctx) => {
    const result = checkWebUrl(value, options);
    if (result.ok) return result.href;
    ctx.addIssue({ code: "custom", message: result.issue });
    return z.NEVER;
  });
}
