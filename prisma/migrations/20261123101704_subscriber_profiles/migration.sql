-- CreateTable
CREATE TABLE "subscriber_profiles" (
    "member_id" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriber_profiles_pkey" PRIMARY KEY ("member_id")
);

-- AddForeignKey
ALTER TABLE "subscriber_profiles" ADD CONSTRAINT "subscriber_profiles_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
