-- CreateTable
CREATE TABLE "member_identities" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "member_id" INTEGER NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "member_identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pages" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "headline" TEXT,
    "hero_image_url" TEXT,
    "author_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comments" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "parent_comment_id" INTEGER,
    "author_id" INTEGER NOT NULL,
    "body" JSONB NOT NULL,
    "body_digest" TEXT NOT NULL,
    "hidden_by_id" INTEGER,
    "hidden_at" TIMESTAMPTZ(3),
    "deleted_by_id" UUID,
    "deleted_at" TIMESTAMPTZ(3),
    "edited_at" TIMESTAMPTZ(3),
    "is_spam" BOOLEAN NOT NULL DEFAULT false,
    "is_published" BOOLEAN NOT NULL DEFAULT true,
    "toxicity" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "confidential" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment_reactions" (
    "id" SERIAL NOT NULL,
    "comment_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "reaction_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_reactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "member_identities_member_id_idx" ON "member_identities"("member_id");

-- CreateIndex
CREATE UNIQUE INDEX "member_identities_account_id_provider_external_id_key" ON "member_identities"("account_id", "provider", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "pages_account_id_url_key" ON "pages"("account_id", "url");

-- CreateIndex
CREATE INDEX "comments_page_id_parent_comment_id_created_at_idx" ON "comments"("page_id", "parent_comment_id", "created_at");

-- CreateIndex
CREATE INDEX "comments_parent_comment_id_idx" ON "comments"("parent_comment_id");

-- CreateIndex
CREATE INDEX "comments_author_id_page_id_created_at_idx" ON "comments"("author_id", "page_id", "created_at");

-- CreateIndex
CREATE INDEX "comments_account_id_idx" ON "comments"("account_id");

-- CreateIndex
CREATE INDEX "comment_reactions_member_id_idx" ON "comment_reactions"("member_id");

-- CreateIndex
CREATE UNIQUE INDEX "comment_reactions_comment_id_member_id_reaction_id_key" ON "comment_reactions"("comment_id", "member_id", "reaction_id");

-- AddForeignKey
ALTER TABLE "member_identities" ADD CONSTRAINT "member_identities_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_identities" ADD CONSTRAINT "member_identities_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pages" ADD CONSTRAINT "pages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_comment_id_fkey" FOREIGN KEY ("parent_comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
