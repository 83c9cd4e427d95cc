-- CreateTable
CREATE TABLE "member_consents" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "list" TEXT NOT NULL,
    "consented_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_consents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "member_consents_account_id_list_idx" ON "member_consents"("account_id", "list");

-- CreateIndex
CREATE UNIQUE INDEX "member_consents_member_id_list_key" ON "member_consents"("member_id", "list");

-- AddForeignKey
ALTER TABLE "member_consents" ADD CONSTRAINT "member_consents_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_consents" ADD CONSTRAINT "member_consents_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
