-- AlterTable
ALTER TABLE "import_runs" ADD COLUMN     "progress_done" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "progress_total" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "report" JSONB,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "upload_id" UUID;

-- CreateTable
CREATE TABLE "import_uploads" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "file_digest" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "uploaded_by_id" UUID,
    "operation" TEXT NOT NULL DEFAULT 'dry-run',
    "state" TEXT NOT NULL DEFAULT 'queued',
    "progress_done" INTEGER NOT NULL DEFAULT 0,
    "progress_total" INTEGER NOT NULL DEFAULT 0,
    "dry_report" JSONB,
    "error" TEXT,
    "cancel_requested_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_uploads_account_id_created_at_idx" ON "import_uploads"("account_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "import_runs_upload_id_idx" ON "import_runs"("upload_id");

-- AddForeignKey
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "import_uploads"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_uploads" ADD CONSTRAINT "import_uploads_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_uploads" ADD CONSTRAINT "import_uploads_uploaded_by_id_fkey" FOREIGN KEY ("uploaded_by_id") REFERENCES "admin_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
