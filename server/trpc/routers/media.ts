/**
 * media.* – the media library (/admin/content/media): the account's staff uploads with their
 * thumbnails, alt text and uses; alt text edits, and deleting unused uploads. Editors (OWNER
 * passes), as for the rest of the content area. Uploading stays POST /api/admin/images.
 */
import { z } from "zod";

import { getEnv } from "../../../env.js";
import { deleteMedia, getMedia, listMedia, updateMediaAlt } from "../../publishing/editorial/media-library";
import {
  ZListMediaInput,
  ZMediaItem,
  ZMediaKeyInput,
  ZMediaPage,
  ZUpdateAltInput,
} from "../../publishing/editorial/media.schema";
import { imageStorageFromEnv } from "../../storage/image-storage";
import { adminProcedure, createTRPCRouter, editorProcedure } from "../trpc";

export const mediaRouter = createTRPCRouter({
  /** Contributors too: "Choose from library" beside their stories' image uploads. */
  list: adminProcedure(["EDITOR", "CONTRIBUTOR"])
    .input(ZListMediaInput)
    .output(ZMediaPage)
    .query(({ ctx, input }) => {
      const env = getEnv();
      return listMedia(ctx.db, {
        actor: ctx.actor,
        input,
        storage: imageStorageFromEnv(env),
        env,
        now: new Date(),
      });
    }),

  get: editorProcedure
    .input(ZMediaKeyInput)
    .output(ZMediaItem)
    .query(({ ctx, input }) => getMedia(ctx.db, { actor: ctx.actor, key: input.key, env: getEnv() })),

  updateAlt: editorProcedure
    .input(ZUpdateAltInput)
    .output(ZMediaItem)
    .mutation(({ ctx, input }) =>
      updateMediaAlt(ctx.db, { actor: ctx.actor, key: input.key, alt: input.alt, env: getEnv(), now: new Date() }),
    ),

  delete: editorProcedure
    .input(ZMediaKeyInput)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteMedia(ctx.db, {
        actor: ctx.actor,
        key: input.key,
        storage: imageStorageFromEnv(getEnv()),
        now: new Date(),
      });
      return { deleted: true as const };
    }),
});
