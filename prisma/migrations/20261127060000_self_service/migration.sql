-- The self-service page: the retention offer per account, and readers' cancels with their reason.

-- CreateTable
CREATE TABLE "retention_offers" (
    "account_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "coupon_id" INTEGER,
    "periods" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "retention_offers_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "subscription_cancellations" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "subscriber_id" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "comment" TEXT,
    "outcome" TEXT NOT NULL,
    "offer" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "undone_at" TIMESTAMPTZ(3),

    CONSTRAINT "subscription_cancellations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_cancellations_account_id_created_at_idx" ON "subscription_cancellations"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "subscription_cancellations_subscription_id_idx" ON "subscription_cancellations"("subscription_id");

-- AddForeignKey
ALTER TABLE "retention_offers" ADD CONSTRAINT "retention_offers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_cancellations" ADD CONSTRAINT "subscription_cancellations_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_cancellations" ADD CONSTRAINT "subscription_cancellations_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
