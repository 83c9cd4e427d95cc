-- CreateTable
CREATE TABLE "conversion_wall_hits" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "story_id" UUID NOT NULL,
    "reader_id" TEXT NOT NULL,
    "wall" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "conversion_wall_hits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversion_reader_links" (
    "account_id" INTEGER NOT NULL,
    "reader_id" TEXT NOT NULL,
    "member_id" INTEGER NOT NULL,
    "via" TEXT NOT NULL,
    "linked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "conversion_reader_links_pkey" PRIMARY KEY ("account_id","reader_id","member_id")
);

-- CreateIndex
CREATE INDEX "conversion_wall_hits_reader_idx" ON "conversion_wall_hits"("account_id", "reader_id", "last_at");

-- CreateIndex
CREATE INDEX "conversion_wall_hits_time_idx" ON "conversion_wall_hits"("account_id", "first_at");

-- CreateIndex
CREATE UNIQUE INDEX "conversion_wall_hits_key" ON "conversion_wall_hits"("account_id", "story_id", "reader_id", "day");

-- CreateIndex
CREATE INDEX "conversion_reader_links_member_idx" ON "conversion_reader_links"("member_id");

-- AddForeignKey
ALTER TABLE "conversion_wall_hits" ADD CONSTRAINT "conversion_wall_hits_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversion_wall_hits" ADD CONSTRAINT "conversion_wall_hits_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversion_reader_links" ADD CONSTRAINT "conversion_reader_links_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversion_reader_links" ADD CONSTRAINT "conversion_reader_links_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
