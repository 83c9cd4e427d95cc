-- AlterTable
ALTER TABLE "newsletter_sends" DROP COLUMN "created_by",
ADD COLUMN     "created_by" UUID;
