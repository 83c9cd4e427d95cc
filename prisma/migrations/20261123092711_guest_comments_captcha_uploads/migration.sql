-- AlterTable
ALTER TABLE "comments" ADD COLUMN     "guest" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "guest_name" TEXT,
ADD COLUMN     "mobile" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "image_assets" ADD COLUMN     "uploaded_by_member_id" INTEGER;

-- CreateTable
CREATE TABLE "used_captchas" (
    "digest" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "used_captchas_pkey" PRIMARY KEY ("digest")
);

-- CreateIndex
CREATE INDEX "used_captchas_expires_at_idx" ON "used_captchas"("expires_at");

-- AddForeignKey
ALTER TABLE "image_assets" ADD CONSTRAINT "image_assets_uploaded_by_member_id_fkey" FOREIGN KEY ("uploaded_by_member_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;
