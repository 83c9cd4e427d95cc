/**
 * organise.* – what organises stories, for editors (OWNER passes): sections, authors, tags,
 * entities with relationships, collections and the story picker. Collection changes hand their
 * webhook deliveries to the background engine after the commit.
 */
import { z } from "zod";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import * as collections from "../../publishing/editorial/collections";
import * as organise from "../../publishing/editorial/organise.schema";
import * as taxonomy from "../../publishing/editorial/taxonomy";
import { adminProcedure, createTRPCRouter } from "../trpc";

const editorProcedure = adminProcedure(["EDITOR"]);

type Editor = { actor: StaffActor };

/** A read of one row by id. */
function getQuery<R>(get: (db: Db, args: Editor & { id: number }) => Promise<R>) {
  return editorProcedure
    .input(organise.ZIdInput)
    .query(({ ctx, input }) => get(ctx.db, { actor: ctx.actor, id: input.id }));
}

/** A write (create, update …): the service gets the editor, the parsed input and the time of the request. */
function writeMutation<S extends z.ZodType, R>(
  schema: S,
  write: (db: Db, args: Editor & { input: z.output<S>; now: Date }) => Promise<R>,
) {
  return editorProcedure
    .input(schema)
    .mutation(({ ctx, input }) => write(ctx.db, { actor: ctx.actor, input: input as z.output<S>, now: new Date() }));
}

/** A delete by id. */
function deleteMutation<R>(remove: (db: Db, args: Editor & { id: number; now: Date }) => Promise<R>) {
  return editorProcedure
    .input(organise.ZIdInput)
    .mutation(({ ctx, input }) => remove(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() }));
}

const sections = createTRPCRouter({
  list: editorProcedure.query(({ ctx }) => taxonomy.listSections(ctx.db, { actor: ctx.actor })),
  create: writeMutation(organise.ZCreateSectionInput, taxonomy.createSection),
  update: writeMutation(organise.ZUpdateSectionInput, taxonomy.updateSection),
  delete: deleteMutation(taxonomy.deleteSection),
});

const authors = createTRPCRouter({
  list: editorProcedure
    .input(organise.ZListInput.optional())
    .query(({ ctx, input }) => taxonomy.listAuthors(ctx.db, { actor: ctx.actor, ...input })),
  create: writeMutation(organise.ZCreateAuthorInput, taxonomy.createAuthor),
  update: writeMutation(organise.ZUpdateAuthorInput, taxonomy.updateAuthor),
  delete: deleteMutation(taxonomy.deleteAuthor),
});

const tags = createTRPCRouter({
  list: editorProcedure
    .input(organise.ZListInput.optional())
    .query(({ ctx, input }) => taxonomy.listTags(ctx.db, { actor: ctx.actor, ...input })),
  create: writeMutation(organise.ZCreateTagInput, taxonomy.createTag),
  update: writeMutation(organise.ZUpdateTagInput, taxonomy.updateTag),
  delete: deleteMutation(taxonomy.deleteTag),
});

const entities = createTRPCRouter({
  list: editorProcedure
    .input(organise.ZListEntitiesInput.optional())
    .query(({ ctx, input }) => taxonomy.listEntities(ctx.db, { actor: ctx.actor, ...input })),
  get: getQuery(taxonomy.getEntity),
  create: writeMutation(organise.ZCreateEntityInput, taxonomy.createEntity),
  update: writeMutation(organise.ZUpdateEntityInput, taxonomy.updateEntity),
  delete: deleteMutation(taxonomy.deleteEntity),
  relate: writeMutation(organise.ZAddRelationshipInput, taxonomy.addEntityRelationship),
  unrelate: editorProcedure
    .input(z.object({ relationshipId: z.number().int().positive().max(2_147_483_647) }))
    .mutation(({ ctx, input }) =>
      taxonomy.removeEntityRelationship(ctx.db, { actor: ctx.actor, id: input.relationshipId, now: new Date() }),
    ),
});

const collectionsRouter = createTRPCRouter({
  list: editorProcedure
    .input(organise.ZListCollectionsInput.optional())
    .query(({ ctx, input }) => collections.listCollections(ctx.db, { actor: ctx.actor, ...input })),
  get: getQuery(collections.getCollection),
  create: writeMutation(organise.ZCreateCollectionInput, collections.createCollection),
  update: writeMutation(organise.ZUpdateCollectionInput, collections.updateCollection),
  setItems: writeMutation(organise.ZSetCollectionItemsInput, collections.setCollectionItems),
  delete: deleteMutation(collections.deleteCollection),
  /** The story picker of the collection editor. */
  pickStories: editorProcedure
    .input(organise.ZPickStoriesInput.optional())
    .query(({ ctx, input }) => collections.pickStories(ctx.db, { actor: ctx.actor, ...input })),
});

export const contentOrganiseRouter = createTRPCRouter({
  sections,
  authors,
  tags,
  entities,
  collections: collectionsRouter,
});
