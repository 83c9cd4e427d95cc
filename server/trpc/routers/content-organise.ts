/**
 * organise.* – what organises stories, for editors (OWNER passes): sections, authors, tags,
 * entities with relationships, collections and the story picker. Collection changes hand their
 * webhook deliveries to the background engine after the commit.
 */
import { z } from "zod";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { setCollectionItems } from "../../publishing/editorial/collections/items";
import { getCollection, listCollections, pickStories } from "../../publishing/editorial/collections/read";
import { createCollection, deleteCollection, updateCollection } from "../../publishing/editorial/collections/write";
import * as organise from "../../publishing/editorial/organise.schema";
import { createAuthor, deleteAuthor, listAuthors, updateAuthor } from "../../publishing/editorial/taxonomy/authors";
import {
  addEntityRelationship,
  createEntity,
  deleteEntity,
  getEntity,
  listEntities,
  removeEntityRelationship,
  updateEntity,
} from "../../publishing/editorial/taxonomy/entities";
import {
  createSection,
  deleteSection,
  listSections,
  updateSection,
} from "../../publishing/editorial/taxonomy/sections";
import { createTag, deleteTag, listTags, updateTag } from "../../publishing/editorial/taxonomy/tags";
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
  list: editorProcedure.query(({ ctx }) => listSections(ctx.db, { actor: ctx.actor })),
  create: writeMutation(organise.ZCreateSectionInput, createSection),
  update: writeMutation(organise.ZUpdateSectionInput, updateSection),
  delete: deleteMutation(deleteSection),
});

const authors = createTRPCRouter({
  list: listQuery(organise.ZListInput, listAuthors),
  create: writeMutation(organise.ZCreateAuthorInput, createAuthor),
  update: writeMutation(organise.ZUpdateAuthorInput, updateAuthor),
  delete: deleteMutation(deleteAuthor),
});

const tags = createTRPCRouter({
  list: listQuery(organise.ZListInput, listTags),
  create: writeMutation(organise.ZCreateTagInput, createTag),
  update: writeMutation(organise.ZUpdateTagInput, updateTag),
  delete: deleteMutation(deleteTag),
});

const entities = createTRPCRouter({
  list: listQuery(organise.ZListEntitiesInput, listEntities),
  get: getQuery(getEntity),
  create: writeMutation(organise.ZCreateEntityInput, createEntity),
  update: writeMutation(organise.ZUpdateEntityInput, updateEntity),
  delete: deleteMutation(deleteEntity),
  relate: writeMutation(organise.ZAddRelationshipInput, addEntityRelationship),
  unrelate: editorProcedure
    .input(z.object({ relationshipId: z.number().int().positive().max(2_147_483_647) }))
    .mutation(({ ctx, input }) =>
      removeEntityRelationship(ctx.db, { actor: ctx.actor, id: input.relationshipId, now: new Date() }),
    ),
});

const collectionsRouter = createTRPCRouter({
  list: listQuery(organise.ZListCollectionsInput, listCollections),
  get: getQuery(getCollection),
  create: writeMutation(organise.ZCreateCollectionInput, createCollection),
  update: writeMutation(organise.ZUpdateCollectionInput, updateCollection),
  setItems: writeMutation(organise.ZSetCollectionItemsInput, setCollectionItems),
  delete: deleteMutation(deleteCollection),
  /** The story picker of the collection editor. */
  pickStories: listQuery(organise.ZPickStoriesInput, pickStories),
});

export const contentOrganiseRouter = createTRPCRouter({
  sections,
  authors,
  tags,
  entities,
  collections: collectionsRouter,
});
