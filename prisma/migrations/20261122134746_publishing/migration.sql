-- CreateEnum
CREATE TYPE "story_status" AS ENUM ('draft', 'submitted', 'approved', 'published', 'retracted');

-- CreateEnum
CREATE TYPE "email_status" AS ENUM ('pending', 'sent', 'failed');

-- CreateTable
CREATE TABLE "publisher_configs" (
    "account_id" INTEGER NOT NULL,
    "site_url" TEXT NOT NULL,
    "cdn_image" TEXT NOT NULL,
    "language_iso_code" TEXT NOT NULL DEFAULT 'en',
    "language_ietf_code" TEXT NOT NULL DEFAULT 'en-US',
    "language_direction" TEXT NOT NULL DEFAULT 'ltr',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "seo" JSONB NOT NULL DEFAULT '{}',
    "theme" JSONB NOT NULL DEFAULT '{}',
    "social_links" JSONB NOT NULL DEFAULT '{}',
    "layout" JSONB NOT NULL DEFAULT '{}',
    "amp_config" JSONB NOT NULL DEFAULT '{}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "publisher_configs_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "sections" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "parent_id" INTEGER,
    "collection_id" INTEGER,
    "domain_slug" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "authors" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "email" TEXT,
    "avatar_url" TEXT,
    "avatar_s3_key" TEXT,
    "twitter_handle" TEXT,
    "bio" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "authors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "meta_description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entities" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "entity_type_id" INTEGER,
    "slug" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_by" UUID,
    "last_updated_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "entities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entity_relationships" (
    "id" SERIAL NOT NULL,
    "from_entity_id" INTEGER NOT NULL,
    "to_entity_id" INTEGER NOT NULL,
    "relation" TEXT NOT NULL,
    "rank" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "entity_relationships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stories" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "headline" TEXT NOT NULL,
    "subheadline" TEXT,
    "slug" TEXT NOT NULL,
    "summary" TEXT,
    "status" "story_status" NOT NULL DEFAULT 'draft',
    "story_template" TEXT,
    "content_type" TEXT NOT NULL DEFAULT 'story',
    "version" INTEGER NOT NULL DEFAULT 1,
    "story_version_id" UUID NOT NULL,
    "cards" JSONB NOT NULL DEFAULT '[]',
    "plain_text" TEXT NOT NULL DEFAULT '',
    "search_vector" tsvector,
    "seo" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "hero_image_s3_key" TEXT,
    "hero_image_metadata" JSONB,
    "hero_image_caption" TEXT,
    "hero_image_attribution" TEXT,
    "alternative" JSONB NOT NULL DEFAULT '{}',
    "access" TEXT NOT NULL DEFAULT 'public',
    "access_level_value" INTEGER,
    "is_live_blog" BOOLEAN NOT NULL DEFAULT false,
    "canonical_url" TEXT,
    "custom_slug" TEXT,
    "read_time" INTEGER NOT NULL DEFAULT 1,
    "is_breaking_news" BOOLEAN NOT NULL DEFAULT false,
    "breaking_news_expires_at" TIMESTAMPTZ(3),
    "breaking_news_linked_story_id" UUID,
    "publish_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),
    "first_published_at" TIMESTAMPTZ(3),
    "last_published_at" TIMESTAMPTZ(3),
    "owner_id" UUID,
    "assignee_id" UUID,
    "external_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "story_sections" (
    "story_id" UUID NOT NULL,
    "section_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "story_sections_pkey" PRIMARY KEY ("story_id","section_id")
);

-- CreateTable
CREATE TABLE "story_authors" (
    "story_id" UUID NOT NULL,
    "author_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "story_authors_pkey" PRIMARY KEY ("story_id","author_id")
);

-- CreateTable
CREATE TABLE "story_tags" (
    "story_id" UUID NOT NULL,
    "tag_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "story_tags_pkey" PRIMARY KEY ("story_id","tag_id")
);

-- CreateTable
CREATE TABLE "story_entities" (
    "story_id" UUID NOT NULL,
    "entity_id" INTEGER NOT NULL,

    CONSTRAINT "story_entities_pkey" PRIMARY KEY ("story_id","entity_id")
);

-- CreateTable
CREATE TABLE "collections" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "template" TEXT NOT NULL DEFAULT 'default',
    "automated" BOOLEAN NOT NULL DEFAULT false,
    "rules" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collection_items" (
    "id" SERIAL NOT NULL,
    "collection_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "story_id" UUID,
    "child_collection_id" INTEGER,
    "associated_metadata" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "collection_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_urls" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "source_path" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL DEFAULT 302,
    "destination_path" TEXT,
    "title" TEXT,
    "content" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_urls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "image_assets" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "uploaded_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "image_assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "members" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "username" TEXT,
    "first_name" TEXT,
    "last_name" TEXT,
    "email" TEXT NOT NULL,
    "communication_email" TEXT,
    "password_hash" TEXT NOT NULL,
    "bio" TEXT,
    "avatar_url" TEXT,
    "avatar_s3_key" TEXT,
    "twitter_handle" TEXT,
    "source" TEXT NOT NULL DEFAULT 'email',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member_sessions" (
    "id" UUID NOT NULL,
    "member_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "password_reset_tokens" (
    "id" UUID NOT NULL,
    "member_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "password_reset_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "story_votes" (
    "story_id" UUID NOT NULL,
    "member_id" INTEGER NOT NULL,
    "magnitude" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "story_votes_pkey" PRIMARY KEY ("story_id","member_id")
);

-- CreateTable
CREATE TABLE "outgoing_emails" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "email_status" NOT NULL DEFAULT 'pending',
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outgoing_emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sections_collection_id_key" ON "sections"("collection_id");

-- CreateIndex
CREATE UNIQUE INDEX "sections_account_id_slug_key" ON "sections"("account_id", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "authors_account_id_slug_key" ON "authors"("account_id", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "tags_account_id_slug_key" ON "tags"("account_id", "slug");

-- CreateIndex
CREATE INDEX "entities_account_id_type_idx" ON "entities"("account_id", "type");

-- CreateIndex
CREATE INDEX "entity_relationships_to_entity_id_idx" ON "entity_relationships"("to_entity_id");

-- CreateIndex
CREATE UNIQUE INDEX "entity_relationships_from_entity_id_relation_to_entity_id_key" ON "entity_relationships"("from_entity_id", "relation", "to_entity_id");

-- CreateIndex
CREATE INDEX "stories_account_id_status_published_at_idx" ON "stories"("account_id", "status", "published_at" DESC);

-- CreateIndex
CREATE INDEX "stories_account_id_status_last_published_at_idx" ON "stories"("account_id", "status", "last_published_at" DESC);

-- CreateIndex

-- CreateIndex
CREATE UNIQUE INDEX "stories_account_id_slug_key" ON "stories"("account_id", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "stories_account_id_external_id_key" ON "stories"("account_id", "external_id");

-- CreateIndex
CREATE INDEX "story_sections_section_id_idx" ON "story_sections"("section_id");

-- CreateIndex
CREATE INDEX "story_authors_author_id_idx" ON "story_authors"("author_id");

-- CreateIndex
CREATE INDEX "story_tags_tag_id_idx" ON "story_tags"("tag_id");

-- CreateIndex
CREATE INDEX "story_entities_entity_id_idx" ON "story_entities"("entity_id");

-- CreateIndex
CREATE UNIQUE INDEX "collections_account_id_slug_key" ON "collections"("account_id", "slug");

-- CreateIndex
CREATE INDEX "collection_items_collection_id_position_idx" ON "collection_items"("collection_id", "position");

-- CreateIndex
CREATE INDEX "collection_items_story_id_idx" ON "collection_items"("story_id");

-- CreateIndex
CREATE UNIQUE INDEX "collection_items_collection_id_story_id_key" ON "collection_items"("collection_id", "story_id");

-- CreateIndex
CREATE UNIQUE INDEX "collection_items_collection_id_child_collection_id_key" ON "collection_items"("collection_id", "child_collection_id");

-- CreateIndex
CREATE UNIQUE INDEX "custom_urls_account_id_source_path_key" ON "custom_urls"("account_id", "source_path");

-- CreateIndex
CREATE UNIQUE INDEX "image_assets_key_key" ON "image_assets"("key");

-- CreateIndex
CREATE INDEX "image_assets_account_id_created_at_idx" ON "image_assets"("account_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "members_account_id_email_key" ON "members"("account_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "members_account_id_username_key" ON "members"("account_id", "username");

-- CreateIndex
CREATE UNIQUE INDEX "member_sessions_token_hash_key" ON "member_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "member_sessions_member_id_idx" ON "member_sessions"("member_id");

-- CreateIndex
CREATE UNIQUE INDEX "password_reset_tokens_token_hash_key" ON "password_reset_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "password_reset_tokens_member_id_idx" ON "password_reset_tokens"("member_id");

-- CreateIndex
CREATE INDEX "outgoing_emails_account_id_created_at_idx" ON "outgoing_emails"("account_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "outgoing_emails_status_created_at_idx" ON "outgoing_emails"("status", "created_at");

-- AddForeignKey
ALTER TABLE "publisher_configs" ADD CONSTRAINT "publisher_configs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sections" ADD CONSTRAINT "sections_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sections" ADD CONSTRAINT "sections_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "sections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sections" ADD CONSTRAINT "sections_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "authors" ADD CONSTRAINT "authors_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entities" ADD CONSTRAINT "entities_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entity_relationships" ADD CONSTRAINT "entity_relationships_from_entity_id_fkey" FOREIGN KEY ("from_entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entity_relationships" ADD CONSTRAINT "entity_relationships_to_entity_id_fkey" FOREIGN KEY ("to_entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stories" ADD CONSTRAINT "stories_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_sections" ADD CONSTRAINT "story_sections_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_sections" ADD CONSTRAINT "story_sections_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_authors" ADD CONSTRAINT "story_authors_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_authors" ADD CONSTRAINT "story_authors_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "authors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_tags" ADD CONSTRAINT "story_tags_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_tags" ADD CONSTRAINT "story_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_entities" ADD CONSTRAINT "story_entities_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_entities" ADD CONSTRAINT "story_entities_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collections" ADD CONSTRAINT "collections_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_child_collection_id_fkey" FOREIGN KEY ("child_collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_urls" ADD CONSTRAINT "custom_urls_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_assets" ADD CONSTRAINT "image_assets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_sessions" ADD CONSTRAINT "member_sessions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_votes" ADD CONSTRAINT "story_votes_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "story_votes" ADD CONSTRAINT "story_votes_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outgoing_emails" ADD CONSTRAINT "outgoing_emails_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text search (GET /api/v1/search): weighted headline (A) > subheadline (B) > text (C).
-- A stored generated column, so every write path indexes alike. Prisma does not model generated
-- columns: the schema declares the column (Unsupported tsvector) and its GIN index, and this
-- migration replaces the plain column with the generated one. No semicolons inside statements:
-- the PostgreSQL adapter splits migration scripts on them.
ALTER TABLE "stories" DROP COLUMN "search_vector";
ALTER TABLE "stories" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, coalesce("headline", '')), 'A') ||
  setweight(to_tsvector('english'::regconfig, coalesce("subheadline", '')), 'B') ||
  setweight(to_tsvector('english'::regconfig, coalesce("plain_text", '')), 'C')
) STORED;
CREATE INDEX "stories_search_vector_idx" ON "stories" USING GIN ("search_vector");
