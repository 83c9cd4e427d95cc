/**
 * Page metadata (docs/engagement.md, "Page metadata"): what `talktype.pageMetadataSetter(accountId,
 * pageUrl, pageMetadata)` sends, stored on the page.
 *
 * - The metadata is a flat object (page-metadata.schema.ts); it replaces the page's metadata.
 *   `og:title` sets the page's headline and `og:image` (an absolute http(s) URL) its hero image,
 *   when present; absent, they are kept.
 * - **Authors (respond-as-author) are the publisher's word, never a reader's.** Anyone can call
 *   this endpoint from a browser, so `author_ids` inside `metadata` is ignored (not stored, listed
 *   in the answer's `ignored`). The page's author ids are set only from a `metadata_jwt`: a token
 *   the publisher signs with the account's shared key (HS256, `exp` enforced when present) whose
 *   claims are `{page_url, author_ids}`; `page_url` must name this page (403 otherwise), so one
 *   page's token cannot make authors elsewhere. A bad signature or an expired token is 401.
 * - A write creates the page, for a URL on the publication's hosts only (403), as comments do.
 */
import "server-only";

import { getEnv } from "../../env.js";
import { verifyAccountSignedToken } from "../auth/api-auth";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Page, Prisma } from "../generated/prisma/client";
import { getPublisher } from "../publishing/publisher";
import {
  PAGE_METADATA_LIMITS,
  ZMetadataClaims,
  type TPageMetadata,
  type TPageMetadataAnswer,
  type TPageMetadataBody,
} from "./page-metadata.schema";
import { decodePageId, findOrCreatePage, normalizePageUrl } from "./pages";

const AUTHOR_IDS_KEY = "author_ids";

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      Boolean(url.hostname) &&
      !url.username &&
      !url.password &&
      !/\s/.test(value)
    );
  } catch {
    return false;
  }
}

/** headline and hero_image_url from og:title and og:image (undefined: absent, keep the page's). */
function pageFields(metadata: TPageMetadata): { headline?: string | null; heroImageUrl?: string | null } {
  const out: { headline?: string | null; heroImageUrl?: string | null } = {};
  const title = metadata["og:title"];
  if (title !== undefined) {
    if (typeof title !== "string") {
      throw new AppError("BAD_REQUEST", "og:title must be a string.", {
        details: [{ field: "body.metadata.og:title", issue: "must be a string" }],
      });
    }
    if (title.length > PAGE_METADATA_LIMITS.maxHeadlineLength) {
      throw new AppError("BAD_REQUEST", `og:title has at most ${PAGE_METADATA_LIMITS.maxHeadlineLength} characters.`, {
        details: [
          {
            field: "body.metadata.og:title",
            issue: `longer than ${PAGE_METADATA_LIMITS.maxHeadlineLength} characters`,
          },
        ],
      });
    }
    out.headline = title.trim() || null;
  }
  const image = metadata["og:image"];
  if (image !== undefined) {
    if (typeof image !== "string" || (image.trim() !== "" && !isHttpUrl(image.trim()))) {
      throw new AppError("BAD_REQUEST", "og:image must be an absolute http(s) URL.", {
        details: [{ field: "body.metadata.og:image", issue: "must be an absolute http(s) URL" }],
      });
    }
    out.heroImageUrl = image.trim() || null;
  }
  return out;
}

/** The author ids a metadata_jwt sets for the page at `url`. */
async function authorIdsFrom(db: Db, accountId: number, token: string, url: string, now: Date): Promise<string[]> {
  const payload = await verifyAccountSignedToken(db, accountId, token, now, "metadata_jwt");
  const claims = ZMetadataClaims.safeParse(payload);
  if (!claims.success) {
    throw new AppError("BAD_REQUEST", "The metadata_jwt must carry page_url and author_ids.", {
      details: [{ field: "body.metadata_jwt", issue: "claims page_url (string) and author_ids (array) are required" }],
    });
  }
  let claimed: string;
  try {
    claimed = normalizePageUrl(claims.data.page_url, "body.metadata_jwt");
  } catch {
    claimed = "";
  }
  if (claimed !== url) {
    throw new AppError("FORBIDDEN", "The metadata_jwt was signed for another page.", {
      details: [{ field: "body.metadata_jwt", issue: "its page_url is not this page" }],
    });
  }
  return [...new Set(claims.data.author_ids)];
}

function answerOf(page: Page, ignored: string[]): TPageMetadataAnswer {
  return {
    page: {
      id: page.id,
      page_url: page.url,
      headline: page.headline,
      hero_image_url: page.heroImageUrl,
      metadata: page.metadata as TPageMetadata,
      author_ids_count: page.authorIds.length,
    },
    ignored,
  };
}

/** Store a page's metadata (created on first use, on the publication's hosts only). */
export async function setPageMetadata(
  db: Db,
  args: { accountId: number; encodedUrl: string; input: TPageMetadataBody; now: Date },
): Promise<TPageMetadataAnswer> {
  const { accountId, input, now } = args;
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const { [AUTHOR_IDS_KEY]: claimedAuthors, ...metadata } = input.metadata;
  const ignored = claimedAuthors !== undefined ? [AUTHOR_IDS_KEY] : [];
  if (Buffer.byteLength(JSON.stringify(metadata)) > PAGE_METADATA_LIMITS.maxBytes) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `Page metadata is at most ${PAGE_METADATA_LIMITS.maxBytes} bytes of JSON.`,
      {
        details: [{ field: "body.metadata", issue: `more than ${PAGE_METADATA_LIMITS.maxBytes} bytes` }],
      },
    );
  }
  const fields = pageFields(metadata);
  const authorIds = input.metadata_jwt ? await authorIdsFrom(db, accountId, input.metadata_jwt, url, now) : undefined;
  const publisher = await getPublisher(db, accountId, { appUrl: getEnv().APP_URL });
  const page = await withTransaction(
    db,
    async (tx) => {
      const page = await findOrCreatePage(tx, publisher, url, now);
      const data: Prisma.PageUpdateInput = { metadata, ...fields };
      if (authorIds !== undefined) data.authorIds = authorIds;
      return tx.page.update({ where: { id: page.id }, data });
    },
    { retryUniqueClashes: true },
  );
  return answerOf(page, ignored);
}
