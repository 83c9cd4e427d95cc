/**
 * Page URLs of the engagement API (spec §2.1 Page): how a page id in a path or in `page_ids` is
 * decoded, and how a URL is normalised so that one article is one page. Pure functions (no I/O).
 *
 * **Decoding** a `<base64_uri_encoded_url>` (docs/engagement.md):
 * - base64 in the standard (`+/`) or the URL-safe (`-_`) alphabet, not both; padding optional but,
 *   when present, right; the canonical encoding of its bytes only (no stray bits in the last
 *   character); at most PAGE_ID_MAX_LENGTH characters;
 * - the bytes are UTF-8 (strictly);
 * - the text is either `encodeURIComponent(url)` (the spec's form, "https%3A%2F%2F…") or the URL
 *   itself, as `btoa(location.href)` sends it (real clients do: research/real-clients.md §7). The
 *   two cannot be confused: encodeURIComponent never leaves a ":" while an absolute URL starts with
 *   "<scheme>:";
 * - the URL is absolute, http or https, without credentials, control characters or spaces.
 * Anything else is BAD_REQUEST naming the field.
 *
 * **Normalising** (normalizePageUrl): scheme and host lower case (IDN hosts in punycode), no
 * trailing dot on the host, no default port, dot segments resolved, no fragment, no tracking
 * parameters (TRACKING_PARAMS, utm_* and every other name in it, any case), the remaining query
 * parameters sorted by name (then value, stable) and re-encoded as a form. The path is kept as is:
 * paths are case-sensitive and "/a" and "/a/" may be different pages.
 *
 * Staff naming a page (page rules) may use any form of its URL: findPageByAnyForm also tries the
 * other scheme, "www." or not and a trailing "/" or not (pageUrlForms).
 *
 * **Pages** are rows (account, normalised URL). A write (the first comment) creates the page, and
 * only for a URL on the publication's hosts (Publisher.publicationHosts: the site URL's host, the
 * account's domain, the domains of Settings); reads of an unknown page create nothing.
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Page } from "../generated/prisma/client";
import { isPublicationUrl, type Publisher } from "../publishing/publisher";

/** Longest page id taken (characters of base64): a 2,048-character URL encoded twice fits. */
const PAGE_ID_MAX_LENGTH = 8_192;
/** Longest normalised page URL stored. */
const PAGE_URL_MAX_LENGTH = 2_048;

/** Query parameters that identify a campaign or a click, not a page (compared lower-cased). */
const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  "fbclid",
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "twclid",
  "ttclid",
  "igshid",
  "li_fat_id",
  "mc_cid",
  "mc_eid",
  "_ga",
  "_gl",
  "_hsenc",
  "_hsmi",
  "mkt_tok",
  "oly_anon_id",
  "oly_enc_id",
  "vero_id",
  "rb_clickid",
  "s_cid",
  "ref_src",
  "ref_url",
]);

export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("utm_") || TRACKING_PARAMS.has(lower);
}

const STANDARD = /^[A-Za-z0-9+/]*$/;
const URL_SAFE = /^[A-Za-z0-9_-]*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// C0 controls, space, DEL and the C1 controls: the URL parser would drop or encode them silently.
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;

// One decoder for every id: a call without `stream` starts afresh, and a fatal one throws on bad bytes.
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function bad(field: string, issue: string): AppError {
  return new AppError("BAD_REQUEST", `The page id in ${field} is not valid: ${issue}.`, {
    details: [{ field, issue }],
  });
}

/** The bytes of strict base64 (either alphabet, padding optional), or null. */
function decodeBase64Strict(text: string): Buffer | null {
  const body = text.replace(/={1,2}$/, "");
  const padded = body.length !== text.length;
  if (padded && text.length % 4 !== 0) return null;
  if (body.length % 4 === 1) return null;
  let standard: string;
  if (STANDARD.test(body)) standard = body;
  else if (URL_SAFE.test(body)) standard = body.replace(/-/g, "+").replace(/_/g, "/");
  else return null;
  const bytes = Buffer.from(standard, "base64");
  // The canonical encoding of these bytes must be what was sent: no ignored characters or bits.
  if (bytes.toString("base64").replace(/=+$/, "") !== standard) return null;
  return bytes;
}

/**
 * The URL a page id names, normalised. `field` names the input in the error ("params.encoded_url",
 * "query.page_ids.2").
 */
export function decodePageId(pageId: string, field: string): string {
  if (pageId.length === 0) throw bad(field, "it is empty");
  if (pageId.length > PAGE_ID_MAX_LENGTH) throw bad(field, `it is longer than ${PAGE_ID_MAX_LENGTH} characters`);
  const bytes = decodeBase64Strict(pageId);
  if (!bytes || bytes.length === 0) throw bad(field, "it is not base64");
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    throw bad(field, "it does not decode to UTF-8 text");
  }
  let url = text;
  if (!SCHEME.test(text)) {
    try {
      url = decodeURIComponent(text);
    } catch {
      throw bad(field, "it does not decode to a URL (malformed percent-encoding)");
    }
  }
  return normalizePageUrl(url, field);
}

/** The page id of a URL, as the spec writes it: base64 of encodeURIComponent(url). */
export function encodePageId(url: string): string {
  return Buffer.from(encodeURIComponent(url), "utf8").toString("base64");
}

/** `url` normalised (see the file's comment); BAD_REQUEST naming `field` when it is no http(s) page URL. */
export function normalizePageUrl(url: string, field: string): string {
  if (CONTROL_OR_SPACE.test(url)) throw bad(field, "the URL contains spaces or control characters");
  if (!SCHEME.test(url)) throw bad(field, "it is not an absolute http(s) URL");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad(field, "it is not an absolute http(s) URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw bad(field, "only http and https URLs are pages");
  if (!parsed.hostname) throw bad(field, "the URL has no host");
  if (parsed.username || parsed.password) throw bad(field, "the URL must not carry credentials");
  if (parsed.hostname.endsWith(".")) parsed.hostname = parsed.hostname.replace(/\.+$/, "");
  // Each setter serialises the URL again: the fragment and the query are rewritten only when the
  // URL has them (a bare "#" or "?" too: it is dropped). The fragment goes first, so a "?" left in
  // the href is the query's.
  if (parsed.href.includes("#")) parsed.hash = "";
  if (parsed.href.includes("?")) {
    const kept = [...parsed.searchParams].filter(([name]) => !isTrackingParam(name));
    kept.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
    parsed.search = kept.length ? new URLSearchParams(kept).toString() : "";
  }
  const normalized = parsed.toString();
  if (normalized.length > PAGE_URL_MAX_LENGTH)
    throw bad(field, `the URL is longer than ${PAGE_URL_MAX_LENGTH} characters`);
  return normalized;
}

/**
 * The other forms a person may write a page's normalised URL in: the other scheme (http/https),
 * with or without "www.", with or without a trailing "/" on the path (the root keeps its "/").
 * `url` first, then the others, no duplicates. Pure.
 */
export function pageUrlForms(url: string): string[] {
  const parsed = new URL(url);
  const host = parsed.hostname.startsWith("www.") ? parsed.hostname.slice(4) : parsed.hostname;
  const hosts = host && !/^[\d.]+$|^\[/.test(host) ? [host, `www.${host}`] : [parsed.hostname];
  const path = parsed.pathname;
  const paths = path === "/" ? ["/"] : [path.replace(/\/+$/, "") || "/", `${path.replace(/\/+$/, "")}/`];
  const forms = new Set<string>([url]);
  for (const scheme of ["https:", "http:"])
    for (const h of hosts)
      for (const p of paths) {
        const form = new URL(url);
        form.protocol = scheme;
        form.hostname = h;
        form.pathname = p;
        if (form.port === (scheme === "https:" ? "443" : "80")) form.port = "";
        forms.add(form.toString());
      }
  return [...forms];
}

/**
 * The account's page that staff name by any form of its URL (normalizePageUrl, then pageUrlForms):
 * the page at exactly that URL, else the one page at another form of it. Null when none;
 * CONFLICT naming the candidates when several pages answer to the forms (staff then give one).
 */
export async function findPageByAnyForm(db: Db, accountId: number, url: string, field: string): Promise<Page | null> {
  const exact = await findPage(db, accountId, url);
  if (exact) return exact;
  const pages = await db.page.findMany({
    where: { accountId, url: { in: pageUrlForms(url) } },
    orderBy: { id: "asc" },
    take: 10,
  });
  if (pages.length <= 1) return pages[0] ?? null;
  throw new AppError(
    "CONFLICT",
    `Several pages answer to this URL: ${pages.map((p) => p.url).join(", ")}. Give one of them.`,
    {
      details: [{ field, issue: "names several pages; give one of them exactly" }],
    },
  );
}

/** The account's page at a normalised URL, or null (nothing is created). */
export function findPage(db: Db, accountId: number, url: string): Promise<Page | null> {
  return db.page.findUnique({ where: { accountId_url: { accountId, url } } });
}

/**
 * FORBIDDEN unless the page exists (`existing`, as findPage read it) or its URL is on the
 * publication's hosts: checked before anything is written for a reader (their member record).
 */
export function assertPageMayOpen(publisher: Publisher, url: string, existing: Page | null): void {
  if (existing || isPublicationUrl(publisher, url)) return;
  throw new AppError(
    "FORBIDDEN",
    `Comments are taken only on the publication's own pages (${publisher.publicationHosts.join(", ") || "no host is set"}); ` +
      "add this host to the publication's domains in Settings.",
    { details: [{ field: "params.encoded_url", issue: "is not on one of the publication's hosts" }] },
  );
}

/**
 * The account's page at a normalised URL, created on first use. FORBIDDEN when the URL is not on
 * the publication's hosts. Safe under concurrency, in a transaction or not: two first comments at
 * once both insert, the unique index (account, url) keeps one (the other's insert does nothing,
 * once the first committed) and both read that one.
 */
export async function findOrCreatePage(
  db: Db,
  publisher: Publisher,
  url: string,
  now: Date,
  /** The page as findPage read it already: null when there was none, undefined when not read. */
  read?: Page | null,
): Promise<Page> {
  const existing = read === undefined ? await findPage(db, publisher.accountId, url) : read;
  if (existing) return existing;
  assertPageMayOpen(publisher, url, existing);
  await db.page.createMany({ data: [{ accountId: publisher.accountId, url, createdAt: now }], skipDuplicates: true });
  const page = await findPage(db, publisher.accountId, url);
  // Only a delete between the two statements leaves nothing (409: the client may send it again).
  if (!page) throw new AppError("CONFLICT", "The page changed meanwhile: send the request again.");
  return page;
}
