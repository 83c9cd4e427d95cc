-- CreateTable
CREATE TABLE "dsa_notices" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "comment_id" INTEGER,
    "author_member_id" INTEGER,
    "category" TEXT NOT NULL,
    "law_or_reason" TEXT NOT NULL,
    "notifier_member_id" INTEGER,
    "notifier_name" TEXT,
    "notifier_email" TEXT,
    "notifier_locale" TEXT,
    "good_faith" BOOLEAN NOT NULL,
    "receipt_mailed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT,
    "decision_category" TEXT,
    "ground" TEXT,
    "ground_reference" TEXT,
    "facts" TEXT,
    "automated" BOOLEAN,
    "decided_by_id" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "comment_was_published" BOOLEAN,
    "comment_state_before" TEXT,

    CONSTRAINT "dsa_notices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dsa_appeals" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "notice_id" INTEGER NOT NULL,
    "party" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT,
    "locale" TEXT,
    "member_id" INTEGER,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "text" TEXT,
    "submitted_at" TIMESTAMPTZ(3),
    "outcome" TEXT,
    "reasons" TEXT,
    "decided_by_id" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dsa_appeals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dsa_notices_account_id_decided_at_created_at_idx" ON "dsa_notices"("account_id", "decided_at", "created_at");

-- CreateIndex
CREATE INDEX "dsa_notices_account_id_created_at_idx" ON "dsa_notices"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "dsa_notices_comment_id_idx" ON "dsa_notices"("comment_id");

-- CreateIndex
CREATE INDEX "dsa_appeals_account_id_submitted_at_idx" ON "dsa_appeals"("account_id", "submitted_at");

-- CreateIndex
CREATE UNIQUE INDEX "dsa_appeals_notice_id_party_key" ON "dsa_appeals"("notice_id", "party");

-- AddForeignKey
ALTER TABLE "dsa_notices" ADD CONSTRAINT "dsa_notices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dsa_notices" ADD CONSTRAINT "dsa_notices_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dsa_appeals" ADD CONSTRAINT "dsa_appeals_notice_id_fkey" FOREIGN KEY ("notice_id") REFERENCES "dsa_notices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
