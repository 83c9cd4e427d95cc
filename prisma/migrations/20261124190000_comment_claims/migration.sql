-- CreateTable
CREATE TABLE "comment_claims" (
    "member_id" INTEGER NOT NULL,
    "comment_id" INTEGER NOT NULL,
    "claim_key" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comment_claims_pkey" PRIMARY KEY ("member_id")
);

-- AddForeignKey
ALTER TABLE "comment_claims" ADD CONSTRAINT "comment_claims_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
