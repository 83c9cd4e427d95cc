-- CreateEnum
CREATE TYPE "job_status" AS ENUM ('pending', 'succeeded', 'failed', 'cancelled');

-- AlterTable
ALTER TABLE "outgoing_emails" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "last_error" TEXT;

-- AlterTable
ALTER TABLE "webhook_deliveries" DROP COLUMN "locked_by",
DROP COLUMN "locked_until";

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT,
    "account_id" INTEGER,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" "job_status" NOT NULL DEFAULT 'pending',
    "run_at" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "locked_by" TEXT,
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "jobs_key_key" ON "jobs"("key");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "jobs"("status", "run_at");

-- CreateIndex
CREATE INDEX "jobs_name_status_idx" ON "jobs"("name", "status");

-- CreateIndex
CREATE INDEX "jobs_completed_at_idx" ON "jobs"("completed_at");

-- Work that was waiting when this migration ran becomes jobs of the new engine, so nothing queued
-- before the upgrade is lost: every pending webhook delivery (due when it was due) and every
-- pending e-mail of the outbox.
INSERT INTO "jobs" ("id", "name", "account_id", "payload", "run_at", "attempts", "updated_at")
SELECT gen_random_uuid(), 'webhook.deliver', e."account_id", jsonb_build_object('deliveryId', d."id"::text),
       d."next_attempt_at", 0, CURRENT_TIMESTAMP
FROM "webhook_deliveries" d JOIN "webhook_events" e ON e."id" = d."event_id"
WHERE d."status" = 'pending';

INSERT INTO "jobs" ("id", "name", "account_id", "payload", "run_at", "updated_at")
SELECT gen_random_uuid(), 'mail.send', m."account_id", jsonb_build_object('emailId', m."id"::text),
       CURRENT_TIMESTAMP, CURRENT_TIMESTAMP
FROM "outgoing_emails" m
WHERE m."status" = 'pending';
