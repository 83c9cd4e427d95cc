/**
 * organise.* – what organises stories, for editors (OWNER passes): sections, authors, tags,
 * entities with relationships, collections and the story picker. Collection changes hand their
 * webhook deliveries to the background engine after the commit.
 */
import { z } from "zod";

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

const sections = createTRPCRouter({
  list: editorProcedure.query(({ ctx }) => listSections(ctx.db, { actor: ctx.actor })),
  create: editorProcedure
    .input(ZCreateSectionInput)
    .mutation(({ ctx, input }) => createSection(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  update: editorProcedure
    .input(ZUpdateSectionInput)
    .mutation(({ ctx, input }) => updateSection(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  delete: editorProcedure
    .input(ZIdInput)
    .mutation(({ ctx, input }) => deleteSection(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),
});

const authors = createTRPCRouter({
  list: editorProcedure
    .input(ZListInput.optional())
    .query(({ ctx, input }) => listAuthors(ctx.db, { actor: ctx.actor, ...input })),
  create: editorProcedure
    .input(ZCreateAuthorInput)
    .mutation(({ ctx, input }) => createAuthor(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  update: editorProcedure
    .input(ZUpdateAuthorInput)
    .mutation(({ ctx, input }) => updateAuthor(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  delete: editorProcedure
    .input(ZIdInput)
    .mutation(({ ctx, input }) => deleteAuthor(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),
});

const tags = createTRPCRouter({
  list: editorProcedure
    .input(ZListInput.optional())
    .query(({ ctx, input }) => listTags(ctx.db, { actor: ctx.actor, ...input })),
  create: editorProcedure
    .input(ZCreateTagInput)
    .mutation(({ ctx, input }) => createTag(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  update: editorProcedure
    .input(ZUpdateTagInput)
    .mutation(({ ctx, input }) => updateTag(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  delete: editorProcedure
    .input(ZIdInput)
    .mutation(({ ctx, input }) => deleteTag(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),
});

const entities = createTRPCRouter({
  list: editorProcedure
    .input(ZListEntitiesInput.optional())
    .query(({ ctx, input }) => listEntities(ctx.db, { actor: ctx.actor, ...input })),
  get: editorProcedure.input(ZIdInput).query(({ ctx, input }) => getEntity(ctx.db, { actor: ctx.actor, id: input.id })),
  create: editorProcedure
    .input(ZCreateEntityInput)
    .mutation(({ ctx, input }) => createEntity(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  update: editorProcedure
    .input(ZUpdateEntityInput)
    .mutation(({ ctx, input }) => updateEntity(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  delete: editorProcedure
    .input(ZIdInput)
    .mutation(({ ctx, input }) => deleteEntity(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),
  relate: editorProcedure
    .input(ZAddRelationshipInput)
    .mutation(({ ctx, input }) => addEntityRelationship(ctx.db, { actor: ctx.actor, input, now: new Date() })),
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
  get: editorProcedure
    .input(ZIdInput)
    .query(({ ctx, input }) => getCollection(ctx.db, { actor: ctx.actor, id: input.id })),
  create: editorProcedure
    .input(ZCreateCollectionInput)
    .mutation(({ ctx, input }) => createCollection(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  update: editorProcedure
    .input(ZUpdateCollectionInput)
    .mutation(({ ctx, input }) => updateCollection(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  setItems: editorProcedure
    .input(ZSetCollectionItemsInput)
    .mutation(({ ctx, input }) => setCollectionItems(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  delete: editorProcedure
    .input(ZIdInput)
    .mutation(({ ctx, input }) => deleteCollection(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),
  /** The story picker of the collection editor. */
  pickStories: editorProcedure
    .input(ZPickStoriesInput.optional())
    .query(({ ctx, input }) => pickStories(ctx.db, { actor: ctx.actor, ...input })),
});

export const contentOrganiseRouter = createTRPCRouter({ sections, authors, tags, entities, collections });
