-- CreateTable
CREATE TABLE "file_assets" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "file_name" TEXT NOT NULL DEFAULT '',
    "mime_type" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "uploaded_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_assets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "file_assets_key_key" ON "file_assets"("key");

-- CreateIndex
CREATE INDEX "file_assets_account_id_created_at_idx" ON "file_assets"("account_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "file_assets" ADD CONSTRAINT "file_assets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
