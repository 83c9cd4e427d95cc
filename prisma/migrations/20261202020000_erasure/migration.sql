-- CreateTable
CREATE TABLE "erasure_requests" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "requested_via" TEXT NOT NULL,
    "staff_id" UUID,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "steps_done" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "erasure_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "erasure_confirmations" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erasure_confirmations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "erasure_requests_member_id_key" ON "erasure_requests"("member_id");

-- CreateIndex
CREATE INDEX "erasure_requests_account_id_created_at_idx" ON "erasure_requests"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "erasure_confirmations_token_hash_key" ON "erasure_confirmations"("token_hash");

-- CreateIndex
CREATE INDEX "erasure_confirmations_member_id_idx" ON "erasure_confirmations"("member_id");

-- AddForeignKey
ALTER TABLE "erasure_requests" ADD CONSTRAINT "erasure_requests_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "erasure_confirmations" ADD CONSTRAINT "erasure_confirmations_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
