/**
 * Query and path parameters of the content API's reference reads (spec §4.4): authors, entities,
 * tags, config, menu groups and custom URLs. Every value arrives as a string; these schemas turn
 * them into numbers and lists, and reject what does not fit with 400.
 */
import { z } from "zod";

import { MAX_LIMIT, refuseNul, zFields, zIntId, zLimit, zOffset, zSlugParam } from "./content.schema";

// Paging, ids and field lists follow the story read API (content.schema.ts): `limit` default 20,
// lowered to 100 above it; `offset` 0 to 10,000; ids positive integers; `fields` comma lists.
const zId = zIntId;
const zSearchText = z.string().trim().max(200, "must be at most 200 characters");

// ─── authors ─────────────────────────────────────────────────────────────────────────────────

export const ZAuthorListQuery = refuseNul(
  z.object({
    limit: zLimit(),
    offset: zOffset,
    /** Part of the name, case-insensitive. */
    q: zSearchText.optional(),
  }),
);
export type TAuthorListQuery = z.output<typeof ZAuthorListQuery>;

export const ZAuthorParams = z.object({ authorId: zId });

export const ZAuthorCollectionQuery = z.object({
  limit: zLimit(),
  offset: zOffset,
  /** Keep only these story fields (`story-fields`, as collections take it, or `fields`). */
  "story-fields": zFields,
  fields: zFields,
});
export type TAuthorCollectionQuery = z.output<typeof ZAuthorCollectionQuery>;

// ─── entities ────────────────────────────────────────────────────────────────────────────────

/** `ids=1,2,3` or `ids[]=1&ids[]=2`: at most 100 integer ids, each under the one number rule. */
const zIdList = z
  .union([z.string(), z.array(z.string())])
  .transform((value): (string | number)[] =>
    (Array.isArray(value) ? value.join(",") : value).split(",").filter((s) => s !== ""),
  )
  .pipe(z.array(zId).min(1, "lists no id").max(MAX_LIMIT, `lists at most ${MAX_LIMIT} ids`));

export const ZEntityListQuery = refuseNul(
  z.object({
    q: zSearchText.optional(),
    limit: zLimit(),
    offset: zOffset,
    id: zId.optional(),
    ids: zIdList.optional(),
    type: z.string().trim().min(1, "must not be empty").max(100).optional(),
  }),
);
export type TEntityListQuery = z.output<typeof ZEntityListQuery>;

export const ZEntityParams = z.object({ id: zId });

/** A catch-all path parameter: Next.js gives its segments; a plain router may give "a/b". */
export const splitPath = (value: unknown): unknown => (typeof value === "string" ? value.split("/") : value);

/** A relation name in a relationship path: "players", "home-team". */
const zRelationName = z
  .string()
  .min(1)
  .max(100, "must be at most 100 characters")
  .refine((s) => s !== "self", '"self" is reserved')
  .refine((s) => !/^\d+$/.test(s), "must not be a number");

/**
 * The segments after /entities/<id>/: relation names, each optionally followed by the id of one
 * of the entities it leads to, which the walk continues from ("players/7/stats").
 */
const zRelationshipPath = z
  .array(z.string())
  .min(1, "name a relation")
  .max(10, "walks at most 10 segments")
  .superRefine((segments, ctx) => {
    segments.forEach((segment, index) => {
      const isId = /^\d+$/.test(segment);
      if (index === 0 && isId) ctx.addIssue({ code: "custom", path: [index], message: "must be a relation name" });
      if (isId) {
        if (!zId.safeParse(segment).success)
          ctx.addIssue({ code: "custom", path: [index], message: "is not a valid entity id" });
        if (index > 0 && /^\d+$/.test(segments[index - 1]!))
          ctx.addIssue({ code: "custom", path: [index], message: "must be a relation name after an id" });
      } else {
        const parsed = zRelationName.safeParse(segment);
        if (!parsed.success)
          ctx.addIssue({
            code: "custom",
            path: [index],
            message: parsed.error.issues[0]?.message ?? "is not a relation name",
          });
      }
    });
  });

export const ZEntityRelationshipParams = refuseNul(
  z.object({ id: zId, subentity: z.preprocess(splitPath, zRelationshipPath) }),
);

export const ZEntityCollectionsQuery = z.object({
  limit: zLimit(),
  offset: zOffset,
  "sort-by": z.enum(["created-at", "updated-at", "name"]).default("updated-at"),
  order: z.enum(["asc", "desc"]).default("desc"),
});
export type TEntityCollectionsQuery = z.output<typeof ZEntityCollectionsQuery>;

// ─── tags, custom URLs ───────────────────────────────────────────────────────────────────────

export const ZTagParams = refuseNul(z.object({ slug: zSlugParam(200) }));

/** The decoded path of a custom URL: starts with "/", no control characters. */
export const ZCustomUrlPath = z
  .string()
  .min(1, "name a path")
  .max(2000, "must be at most 2000 characters")
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters");
