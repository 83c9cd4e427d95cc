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
import { createTRPCRouter, editorProcedure } from "../trpc";

type Editor = { actor: StaffActor };

/** A read of one row by id. */
function getQuery<R>(get: (db: Db, args: Editor & { id: number }) => Promise<R>) {
  return editorProcedure
    .input(organise.ZIdInput)
    .query(({ ctx, input }) => get(ctx.db, { actor: ctx.actor, id: input.id }));
}

/** What a list's service gets: the editor, and whichever filters were given. */
type ListArgs<S extends z.ZodType> = Editor & Partial<z.output<S>>;

/** A read of a list (or a search), its filters optional. */
function listQuery<S extends z.ZodType, R>(schema: S, list: (db: Db, args: ListArgs<S>) => Promise<R>) {
  return editorProcedure.input(schema.optional()).query(({ ctx, input }) => {
    const filters = input as Partial<z.output<S>> | undefined;
    return list(ctx.db, { actor: ctx.actor, ...filters } as ListArgs<S>);
  });
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
  list: listQuery(organise.ZListInput, taxonomy.listAuthors),
  create: writeMutation(organise.ZCreateAuthorInput, taxonomy.createAuthor),
  update: writeMutation(organise.ZUpdateAuthorInput, taxonomy.updateAuthor),
  delete: deleteMutation(taxonomy.deleteAuthor),
});

const tags = createTRPCRouter({
  list: listQuery(organise.ZListInput, taxonomy.listTags),
  create: writeMutation(organise.ZCreateTagInput, taxonomy.createTag),
  update: writeMutation(organise.ZUpdateTagInput, taxonomy.updateTag),
  delete: deleteMutation(taxonomy.deleteTag),
});

const entities = createTRPCRouter({
  list: listQuery(organise.ZListEntitiesInput, taxonomy.listEntities),
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
  list: listQuery(organise.ZListCollectionsInput, collections.listCollections),
  get: getQuery(collections.getCollection),
  create: writeMutation(organise.ZCreateCollectionInput, collections.createCollection),
  update: writeMutation(organise.ZUpdateCollectionInput, collections.updateCollection),
  setItems: writeMutation(organise.ZSetCollectionItemsInput, collections.setCollectionItems),
  delete: deleteMutation(collections.deleteCollection),
  /** The story picker of the collection editor. */
  pickStories: listQuery(organise.ZPickStoriesInput, collections.pickStories),
});

export const contentOrganiseRouter = createTRPCRouter({
  sections,
  authors,
  tags,
  entities,
  collections: collectionsRouter,
});
