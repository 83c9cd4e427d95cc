-- Contributors write and submit their own drafts; nothing else in the workflow.
ALTER TYPE "admin_role" ADD VALUE IF NOT EXISTS 'contributor';

-- The account's four-eyes rule: nobody approves, publishes or schedules a story they own.
ALTER TABLE "accounts" ADD COLUMN "no_self_approval" BOOLEAN NOT NULL DEFAULT false;
