-- CreateTable
CREATE TABLE "page_reactions" (
    "id" SERIAL NOT NULL,
    "page_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "reaction_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "page_reactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "page_reactions_member_id_idx" ON "page_reactions"("member_id");

-- CreateIndex
CREATE UNIQUE INDEX "page_reactions_page_id_member_id_reaction_id_key" ON "page_reactions"("page_id", "member_id", "reaction_id");

-- AddForeignKey
ALTER TABLE "page_reactions" ADD CONSTRAINT "page_reactions_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_reactions" ADD CONSTRAINT "page_reactions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
