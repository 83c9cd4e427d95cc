/**
 * organise.* – what organises stories, for editors (OWNER passes): sections, authors, tags,
 * entities with relationships, collections and the story picker. Collection changes hand their
 * webhook deliveries to the background engine after the commit.
 */
import { z } from "zod";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  pickStories,
  setCollectionItems,
  updateCollection,
} from "../../publishing/editorial/collections";
import {
  ZAddRelationshipInput,
  ZCreateAuthorInput,
  ZCreateCollectionInput,
  ZCreateEntityInput,
  ZCreateSectionInput,
  ZCreateTagInput,
  ZIdInput,
  ZListCollectionsInput,
  ZListEntitiesInput,
  ZListInput,
  ZPickStoriesInput,
  ZSetCollectionItemsInput,
  ZUpdateAuthorInput,
  ZUpdateCollectionInput,
  ZUpdateEntityInput,
  ZUpdateSectionInput,
  ZUpdateTagInput,
} from "../../publishing/editorial/organise.schema";
import {
  addEntityRelationship,
  createAuthor,
  createEntity,
  createSection,
  createTag,
  deleteAuthor,
  deleteEntity,
  deleteSection,
  deleteTag,
  getEntity,
  listAuthors,
  listEntities,
  listSections,
  listTags,
  removeEntityRelationship,
  updateAuthor,
  updateEntity,
  updateSection,
  updateTag,
} from "../../publishing/editorial/taxonomy";
import { adminProcedure, createTRPCRouter } from "../trpc";

const editorProcedure = adminProcedure(["EDITOR"]);

type Editor = { actor: StaffActor };

/** A read of one row by id. */
function getQuery<R>(get: (db: Db, args: Editor & { id: number }) => Promise<R>) {
  return editorProcedure.input(ZIdInput).query(({ ctx, input }) => get(ctx.db, { actor: ctx.actor, id: input.id }));
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
    .input(ZIdInput)
    .mutation(({ ctx, input }) => remove(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() }));
}

const sections = createTRPCRouter({
  list: editorProcedure.query(({ ctx }) => listSections(ctx.db, { actor: ctx.actor })),
  create: writeMutation(ZCreateSectionInput, createSection),
  update: writeMutation(ZUpdateSectionInput, updateSection),
  delete: deleteMutation(deleteSection),
});

const authors = createTRPCRouter({
  list: editorProcedure
    .input(ZListInput.optional())
    .query(({ ctx, input }) => listAuthors(ctx.db, { actor: ctx.actor, ...input })),
  create: writeMutation(ZCreateAuthorInput, createAuthor),
  update: writeMutation(ZUpdateAuthorInput, updateAuthor),
  delete: deleteMutation(deleteAuthor),
});

const tags = createTRPCRouter({
  list: editorProcedure
    .input(ZListInput.optional())
    .query(({ ctx, input }) => listTags(ctx.db, { actor: ctx.actor, ...input })),
  create: writeMutation(ZCreateTagInput, createTag),
  update: writeMutation(ZUpdateTagInput, updateTag),
  delete: deleteMutation(deleteTag),
});

const entities = createTRPCRouter({
  list: editorProcedure
    .input(ZListEntitiesInput.optional())
    .query(({ ctx, input }) => listEntities(ctx.db, { actor: ctx.actor, ...input })),
  get: getQuery(getEntity),
  create: writeMutation(ZCreateEntityInput, createEntity),
  update: writeMutation(ZUpdateEntityInput, updateEntity),
  delete: deleteMutation(deleteEntity),
  relate: writeMutation(ZAddRelationshipInput, addEntityRelationship),
  unrelate: editorProcedure
    .input(z.object({ relationshipId: z.number().int().positive().max(2_147_483_647) }))
    .mutation(({ ctx, input }) =>
      removeEntityRelationship(ctx.db, { actor: ctx.actor, id: input.relationshipId, now: new Date() }),
    ),
});

const collections = createTRPCRouter({
  list: editorProcedure
    .input(ZListCollectionsInput.optional())
    .query(({ ctx, input }) => listCollections(ctx.db, { actor: ctx.actor, ...input })),
  get: getQuery(getCollection),
  create: writeMutation(ZCreateCollectionInput, createCollection),
  update: writeMutation(ZUpdateCollectionInput, updateCollection),
  setItems: writeMutation(ZSetCollectionItemsInput, setCollectionItems),
  delete: deleteMutation(deleteCollection),
  /** The story picker of the collection editor. */
  pickStories: editorProcedure
    .input(ZPickStoriesInput.optional())
    .query(({ ctx, input }) => pickStories(ctx.db, { actor: ctx.actor, ...input })),
});

export const contentOrganiseRouter = createTRPCRouter({ sections, authors, tags, entities, collections });
