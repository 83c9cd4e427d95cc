-- A moderator's word to a reader (docs/engagement.md "Community"): warnings, and the messages of
-- bans and suspensions, which the comment widget shows once and the reader acknowledges.

-- CreateEnum
CREATE TYPE "member_notice_kind" AS ENUM ('warning', 'ban', 'suspension');

-- CreateTable
CREATE TABLE "member_notices" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "kind" "member_notice_kind" NOT NULL,
    "message" TEXT NOT NULL,
    "ban_id" INTEGER,
    "created_by_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" TIMESTAMPTZ(3),

    CONSTRAINT "member_notices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "member_notices_member_id_created_at_idx" ON "member_notices"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "member_notices_account_id_idx" ON "member_notices"("account_id");

-- CreateIndex
CREATE INDEX "member_notices_ban_id_idx" ON "member_notices"("ban_id");

-- AddForeignKey
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_ban_id_fkey" FOREIGN KEY ("ban_id") REFERENCES "comment_bans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
