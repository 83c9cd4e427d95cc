-- AlterTable
ALTER TABLE "image_assets" ADD COLUMN     "alt" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "file_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "thumb_bytes" INTEGER,
ADD COLUMN     "thumb_failed_at" TIMESTAMPTZ(3),
ADD COLUMN     "thumb_key" TEXT;
