/**
 * Which images an editor may point at. Image keys (the spec's `*-s3-key`: a story's hero image,
 * story elements' `image-s3-key`, any `…s3-key` in card, collection or entity metadata, an
 * author's avatar) are appended by front ends to the publisher's image CDN, so a key must be one of
 * the account's own uploads (an `ImageAsset` row of that account: POST /api/admin/images), or an
 * absolute http(s) URL on a host the account allows (`PublisherConfig.settings
 * ["external-image-hosts"]`: host names, `*.example.org` for any subdomain). Anything else (another
 * account's upload, a made-up path, a URL elsewhere) is BAD_REQUEST naming the field.
 *
 * A key the row already holds is kept without a check (it was accepted when it was saved, possibly
 * before this rule), so re-saving an old story does not fail over an image nobody touched.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError, type ErrorDetail } from "../../errors";
import { checkWebUrl } from "../../web-url";

/** The settings key holding the external image hosts an account allows. */
export const EXTERNAL_IMAGE_HOSTS_SETTING = "external-image-hosts";

export type ImageRef = { field: string; key: string };

/** Does a property with this name hold an image key? (`image-s3-key`, `avatar-s3-key`, `s3Key`…) */
const isImageKeyName = (name: string) => /s3-?key$/i.test(name);

/**
 * Every image key in `value` (a JSON tree), with its field path under `path`: string properties
 * whose name ends in "s3-key" (or "s3Key"). Pure.
 */
export function collectImageRefs(value: unknown, path: string): ImageRef[] {
  const out: ImageRef[] = [];
  const walk = (node: unknown, at: string, depth: number) => {
    if (depth > 64 || typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${at}.${i}`, depth + 1));
      return;
    }
    for (const [name, child] of Object.entries(node)) {
      const field = at ? `${at}.${name}` : name;
      if (typeof child === "string" && child !== "" && isImageKeyName(name)) out.push({ field, key: child });
      else walk(child, field, depth + 1);
    }
  };
  walk(value, path, 0);
  return out;
}

/** Is `key` written as a URL (a scheme, or protocol-relative) rather than an upload key? */
const looksLikeUrl = (key: string) => /^[a-z][a-z0-9+.-]*:/i.test(key) || key.startsWith("//");

/**
 * Whether an external image URL is allowed by the account's host list. Pure.
 * Entries: "images.example.org" (that host), "*.example.org" (its subdomains, not itself).
 */
export function isAllowedExternalImage(url: string, hosts: readonly string[]): boolean {
  const checked = checkWebUrl(url);
  if (!checked.ok) return false;
  const host = new URL(checked.href).hostname.toLowerCase();
  return hosts.some((entry) => {
    const allowed = entry.trim().toLowerCase();
    if (allowed.startsWith("*.")) return host.endsWith(allowed.slice(1)) && host.length > allowed.length - 1;
    return allowed !== "" && host === allowed;
  });
}

async function allowedExternalHosts(db: Db, accountId: number): Promise<string[]> {
  const config = await db.publisherConfig.findUnique({ where: { accountId }, select: { settings: true } });
  const settings = config?.settings;
  const hosts =
    typeof settings === "object" && settings !== null && !Array.isArray(settings)
      ? (settings as Record<string, unknown>)[EXTERNAL_IMAGE_HOSTS_SETTING]
      : undefined;
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === "string") : [];
}

/**
 * BAD_REQUEST naming every field whose image is neither the account's upload nor an allowed
 * external URL. `keep`: keys the row already holds (not checked again).
 */
export async function assertImageRefsAllowed(
  db: Db,
  args: { accountId: number; refs: readonly ImageRef[]; keep?: Iterable<string> },
): Promise<void> {
  const keep = new Set(args.keep ?? []);
  const refs = args.refs.filter((ref) => !keep.has(ref.key));
  if (refs.length === 0) return;
  const keys = [...new Set(refs.filter((ref) => !looksLikeUrl(ref.key)).map((ref) => ref.key))];
  const uploaded = new Set(
    keys.length
      ? (
          await db.imageAsset.findMany({
            where: { accountId: args.accountId, key: { in: keys } },
            select: { key: true },
          })
        ).map((image) => image.key)
      : [],
  );
  const hosts = refs.some((ref) => looksLikeUrl(ref.key)) ? await allowedExternalHosts(db, args.accountId) : [];
  const details: ErrorDetail[] = refs.flatMap((ref) => {
    if (looksLikeUrl(ref.key))
      return isAllowedExternalImage(ref.key, hosts)
        ? []
        : [{ field: ref.field, issue: "is an external image URL on a host this account does not allow" }];
    return uploaded.has(ref.key) ? [] : [{ field: ref.field, issue: "is not an image uploaded to this account" }];
  });
  if (details.length)
    throw new AppError(
      "BAD_REQUEST",
      "Images must be uploaded to this account, or be on an external host the account allows.",
      { details },
    );
}

/**
 * assertImageRefsAllowed for a row's `metadata` (a collection's, an entity's): the image keys it
 * sets, those in the row's `previous` metadata kept.
 */
export async function assertMetadataImagesAllowed(
  db: Db,
  args: { accountId: number; metadata: unknown; previous?: unknown },
): Promise<void> {
  await assertImageRefsAllowed(db, {
    accountId: args.accountId,
    refs: collectImageRefs(args.metadata, "metadata"),
    keep: collectImageRefs(args.previous, "metadata").map((ref) => ref.key),
  });
}
