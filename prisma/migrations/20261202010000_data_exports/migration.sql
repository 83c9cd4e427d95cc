-- CreateEnum
CREATE TYPE "member_data_export_status" AS ENUM ('pending', 'ready', 'expired');

-- CreateTable
CREATE TABLE "member_data_exports" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "requested_by" TEXT NOT NULL,
    "staff_user_id" UUID,
    "mail_reader" BOOLEAN NOT NULL,
    "pending_member_id" INTEGER,
    "status" "member_data_export_status" NOT NULL DEFAULT 'pending',
    "locale" TEXT NOT NULL,
    "token_hash" TEXT,
    "storage_key" TEXT,
    "bytes" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ready_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "downloaded_at" TIMESTAMPTZ(3),

    CONSTRAINT "member_data_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "member_data_exports_pending_member_id_key" ON "member_data_exports"("pending_member_id");

-- CreateIndex
CREATE INDEX "member_data_exports_member_id_created_at_idx" ON "member_data_exports"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "member_data_exports_status_expires_at_idx" ON "member_data_exports"("status", "expires_at");

-- AddForeignKey
ALTER TABLE "member_data_exports" ADD CONSTRAINT "member_data_exports_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
