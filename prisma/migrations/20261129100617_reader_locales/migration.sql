-- AlterTable
ALTER TABLE "members" ADD COLUMN     "locale" TEXT;

-- AlterTable
ALTER TABLE "publisher_configs" ADD COLUMN     "locales_offered" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "message_overrides" (
    "account_id" INTEGER NOT NULL,
    "surface" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "message_overrides_pkey" PRIMARY KEY ("account_id","surface","locale","key")
);

-- AddForeignKey
ALTER TABLE "message_overrides" ADD CONSTRAINT "message_overrides_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
