/**
 * The media library (/admin/content/media, media.* in the dashboard's tRPC API): the account's
 * staff uploads, newest first, with their thumbnails, alt text and where each is used.
 *
 * Readers' uploads (comment images: `uploadedByMemberId` set) are not in it: they belong to the
 * comments, and moderation removes them.
 *
 * "Used" means named, as an upload key, by what the account keeps now (image-refs.ts's rule: any
 * `…s3-key` property, and the dedicated columns):
 * - a story: its hero image, and any `…s3-key` in its cards, SEO, metadata or alternative
 *   headline/hero (every status, drafts and retracted stories included; not old revisions);
 * - an author's avatar, or `…s3-key` in their metadata;
 * - a collection's metadata or rules, or an item's associated metadata;
 * - an entity's metadata; a page's metadata;
 * - the publisher's configuration (settings, SEO, theme, layout, social links, AMP).
 * An unused upload is one none of these names: deleting it breaks nothing the account serves.
 * Finding uses reads those rows in full, once per list (fine for thousands of stories; an
 * index of references would be the next step beyond that).
 *
 * Thumbnails of uploads made before the library (or whose thumbnail could not be stored) are
 * made lazily: listing a page makes the missing ones of that page (at most BACKFILL_PER_LIST).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { log } from "../../log";
import { publicImageUrl, type ImageStorage } from "../../storage/image-storage";
import { collectImageRefs, type ImageRef } from "./image-refs";
import { deleteImage, storeThumbnail } from "./images";
import {
  ZListMediaInput,
  type TListMediaInput,
  type TMediaItem,
  type TMediaPage,
  type TMediaUse,
} from "./media.schema";
import { IMAGE_KEY_PATTERN } from "./organise.schema";

/** How many missing thumbnails one list call makes at most. */
const BACKFILL_PER_LIST = 8;

type Env = { APP_URL: string; IMAGE_PUBLIC_BASE_URL?: string | undefined };

// ─── Where images are used ───────────────────────────────────────────────────────────────────

type Use = Omit<TMediaUse, "field">;

/** Add every upload key among `refs` to `uses`, as used by `use`. */
function addUses(uses: Map<string, TMediaUse[]>, use: Use, refs: readonly ImageRef[]) {
  for (const ref of refs) {
    if (!IMAGE_KEY_PATTERN.test(ref.key)) continue;
    const list = uses.get(ref.key) ?? [];
    list.push({ ...use, field: ref.field });
    uses.set(ref.key, list);
  }
}

const column = (field: string, key: string | null): ImageRef[] => (key ? [{ field, key }] : []);

/** Every upload key the account's content and configuration name, with where (see the header). */
async function imageUses(db: Db, accountId: number): Promise<Map<string, TMediaUse[]>> {
  const where = { accountId };
  const [stories, authors, collections, items, entities, pages, config] = await Promise.all([
    db.story.findMany({
      where,
      select: {
        id: true,
        headline: true,
        heroImageS3Key: true,
        cards: true,
        seo: true,
        metadata: true,
        alternative: true,
      },
    }),
    db.author.findMany({ where, select: { id: true, name: true, avatarS3Key: true, metadata: true } }),
    db.collection.findMany({ where, select: { id: true, name: true, metadata: true, rules: true } }),
    db.collectionItem.findMany({
      where: { collection: { accountId } },
      select: { associatedMetadata: true, collection: { select: { id: true, name: true } } },
    }),
    db.entity.findMany({ where, select: { id: true, name: true, metadata: true } }),
    db.page.findMany({ where, select: { id: true, headline: true, metadata: true } }),
    db.publisherConfig.findUnique({
      where: { accountId },
      select: { settings: true, seo: true, theme: true, layout: true, socialLinks: true, ampConfig: true },
    }),
  ]);
  const uses = new Map<string, TMediaUse[]>();
  for (const story of stories)
    addUses(uses, { kind: "story", id: story.id, label: story.headline, href: `/admin/content/stories/${story.id}` }, [
      ...column("heroImage", story.heroImageS3Key),
      ...collectImageRefs(story.cards, "cards"),
      ...collectImageRefs(story.seo, "seo"),
      ...collectImageRefs(story.metadata, "metadata"),
      ...collectImageRefs(story.alternative, "alternative"),
    ]);
  for (const author of authors)
    addUses(uses, { kind: "author", id: String(author.id), label: author.name, href: "/admin/content/authors" }, [
      ...column("avatarS3Key", author.avatarS3Key),
      ...collectImageRefs(author.metadata, "metadata"),
    ]);
  for (const collection of collections)
    addUses(
      uses,
      {
        kind: "collection",
        id: String(collection.id),
        label: collection.name,
        href: `/admin/content/collections/${collection.id}`,
      },
      [...collectImageRefs(collection.metadata, "metadata"), ...collectImageRefs(collection.rules, "rules")],
    );
  for (const item of items)
    addUses(
      uses,
      {
        kind: "collection",
        id: String(item.collection.id),
        label: item.collection.name,
        href: `/admin/content/collections/${item.collection.id}`,
      },
      collectImageRefs(item.associatedMetadata, "items.associatedMetadata"),
    );
  for (const entity of entities)
    addUses(
      uses,
      { kind: "entity", id: String(entity.id), label: entity.name, href: "/admin/content/entities" },
      collectImageRefs(entity.metadata, "metadata"),
    );
  for (const page of pages)
    addUses(
      uses,
      { kind: "page", id: String(page.id), label: page.headline ?? `Page ${page.id}`, href: null },
      collectImageRefs(page.metadata, "metadata"),
    );
  if (config)
    addUses(uses, { kind: "settings", id: "publisher", label: "Publisher settings", href: "/admin/settings" }, [
      ...collectImageRefs(config.settings, "settings"),
      ...collectImageRefs(config.seo, "seo"),
      ...collectImageRefs(config.theme, "theme"),
      ...collectImageRefs(config.layout, "layout"),
      ...collectImageRefs(config.socialLinks, "socialLinks"),
      ...collectImageRefs(config.ampConfig, "ampConfig"),
    ]);
  return uses;
}

/** Where one image is used ([] when nowhere). */
async function usesOfImage(db: Db, accountId: number, key: string): Promise<TMediaUse[]> {
  return (await imageUses(db, accountId)).get(key) ?? [];
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────

const ASSET_SELECT = {
  id: true,
  key: true,
  fileName: true,
  alt: true,
  width: true,
  height: true,
  mimeType: true,
  bytes: true,
  uploadedById: true,
  createdAt: true,
  thumbKey: true,
  thumbFailedAt: true,
} as const;
type Asset = Prisma.ImageAssetGetPayload<{ select: typeof ASSET_SELECT }>;

function toItem(asset: Asset, uses: TMediaUse[], uploaders: Map<string, string>, env: Env): TMediaItem {
  const url = publicImageUrl(asset.key, env);
  return {
    id: asset.id,
    key: asset.key,
    url,
    thumbUrl: asset.thumbKey ? publicImageUrl(asset.thumbKey, env) : url,
    hasThumbnail: asset.thumbKey !== null,
    fileName: asset.fileName,
    alt: asset.alt,
    width: asset.width,
    height: asset.height,
    "mime-type": asset.mimeType,
    bytes: asset.bytes,
    uploadedBy: asset.uploadedById ? (uploaders.get(asset.uploadedById) ?? null) : null,
    createdAt: asset.createdAt,
    usedIn: uses,
  };
}

async function uploaderNames(db: Db, assets: readonly Asset[]): Promise<Map<string, string>> {
  const ids = [...new Set(assets.flatMap((asset) => (asset.uploadedById ? [asset.uploadedById] : [])))];
  if (!ids.length) return new Map();
  const users = await db.adminUser.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(users.map((user) => [user.id, user.name]));
}

/**
 * Make the missing thumbnails of `assets` (at most BACKFILL_PER_LIST; never tried again for an
 * image sharp could not read). Returns the assets as they now are.
 */
async function backfillThumbnails(
  db: Db,
  assets: Asset[],
  args: { storage: ImageStorage; now: Date },
): Promise<Asset[]> {
  const missing = assets.filter((asset) => asset.thumbKey === null && asset.thumbFailedAt === null);
  const done = new Map<string, Partial<Asset>>();
  for (const asset of missing.slice(0, BACKFILL_PER_LIST)) {
    try {
      const object = await args.storage.get(asset.key);
      if (!object) continue; // The bytes are gone: the original is as missing as the thumbnail.
      const data = new Uint8Array(await new Response(object.body).arrayBuffer());
      const thumb = await storeThumbnail(args.storage, asset.key, data, asset);
      const update = thumb.key
        ? { thumbKey: thumb.key, thumbBytes: thumb.bytes }
        : { thumbFailedAt: args.now, thumbKey: null };
      await db.imageAsset.update({ where: { id: asset.id }, data: update });
      done.set(asset.id, update);
    } catch (error) {
      log.warn("could not make a missing thumbnail", { key: asset.key, error });
    }
  }
  return assets.map((asset) => ({ ...asset, ...done.get(asset.id) }));
}

const staffUploads = (accountId: number) => ({ accountId, uploadedByMemberId: null });

/** A page of the account's staff uploads, newest first: searched, optionally only the unused ones. */
export async function listMedia(
  db: Db,
  args: { actor: StaffActor; input: TListMediaInput; storage: ImageStorage; env: Env; now: Date },
): Promise<TMediaPage> {
  const input = ZListMediaInput.parse(args.input);
  const accountId = args.actor.accountId;
  const uses = await imageUses(db, accountId);
  const search = input.search
    ? {
        OR: [
          { fileName: { contains: input.search, mode: "insensitive" as const } },
          { alt: { contains: input.search, mode: "insensitive" as const } },
          { key: { contains: input.search } },
        ],
      }
    : {};
  const where: Prisma.ImageAssetWhereInput = {
    ...staffUploads(accountId),
    ...search,
    ...(input.filter === "unused" ? { key: { notIn: [...uses.keys()] } } : {}),
  };
  const [total, found] = await Promise.all([
    db.imageAsset.count({ where }),
    db.imageAsset.findMany({
      where,
      select: ASSET_SELECT,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: input.offset,
      take: input.limit,
    }),
  ]);
  const assets = await backfillThumbnails(db, found, { storage: args.storage, now: args.now });
  const uploaders = await uploaderNames(db, assets);
  return {
    items: assets.map((asset) => toItem(asset, uses.get(asset.key) ?? [], uploaders, args.env)),
    total,
    offset: input.offset,
    limit: input.limit,
  };
}

async function findAsset(db: Db, accountId: number, key: string): Promise<Asset> {
  const asset = await db.imageAsset.findFirst({ where: { ...staffUploads(accountId), key }, select: ASSET_SELECT });
  if (!asset) throw new AppError("NOT_FOUND", "The library has no image with this key.");
  return asset;
}

/** One of the account's staff uploads, with where it is used. NOT_FOUND otherwise. */
export async function getMedia(db: Db, args: { actor: StaffActor; key: string; env: Env }): Promise<TMediaItem> {
  const asset = await findAsset(db, args.actor.accountId, args.key);
  const [uses, uploaders] = await Promise.all([
    usesOfImage(db, args.actor.accountId, asset.key),
    uploaderNames(db, [asset]),
  ]);
  return toItem(asset, uses, uploaders, args.env);
}

// ─── Writing ─────────────────────────────────────────────────────────────────────────────────

/** Set an image's alt text (already cleaned by ZAltText), audited ("image.alt"). */
export async function updateMediaAlt(
  db: Db,
  args: { actor: StaffActor; key: string; alt: string; env: Env; now: Date },
): Promise<TMediaItem> {
  const asset = await findAsset(db, args.actor.accountId, args.key);
  if (asset.alt !== args.alt) {
    await withTransaction(db, async (tx) => {
      await tx.imageAsset.update({ where: { id: asset.id }, data: { alt: args.alt } });
      await recordAudit(tx, {
        actor: args.actor,
        action: "image.alt",
        targetType: "image",
        targetId: asset.id,
        metadata: { key: asset.key, alt: args.alt },
        now: args.now,
      });
    });
  }
  return getMedia(db, args);
}

/**
 * Delete an unused staff upload: its row (audited "image.delete"), its bytes and thumbnail.
 * CONFLICT naming where it is used when anything still names it; NOT_FOUND for a key the
 * library does not hold (another account's, a reader's).
 */
export async function deleteMedia(
  db: Db,
  args: { actor: StaffActor; key: string; storage: ImageStorage; now: Date },
): Promise<void> {
  await findAsset(db, args.actor.accountId, args.key);
  await deleteImage(db, {
    actor: args.actor,
    key: args.key,
    storage: args.storage,
    now: args.now,
    check: async (tx) => {
      const uses = await usesOfImage(tx, args.actor.accountId, args.key);
      if (uses.length)
        throw new AppError(
          "CONFLICT",
          `This image is still used (${uses
            .slice(0, 3)
            .map((use) => use.label)
            .join(", ")}${uses.length > 3 ? "…" : ""}): take it out of there first.`,
          {
            details: uses.map((use) => ({
              field: "key",
              issue: `is used by ${use.kind} "${use.label}" (${use.field})`,
            })),
          },
        );
    },
  });
}
