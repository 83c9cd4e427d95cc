-- The paywall point's account default and what the public content API serves of a closed story.
ALTER TABLE "accounts" ADD COLUMN "paywall_default_elements" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_paywall_default_elements_check"
  CHECK ("paywall_default_elements" >= 0 AND "paywall_default_elements" <= 1000);

ALTER TABLE "accounts" ADD COLUMN "content_api_access" TEXT NOT NULL DEFAULT 'free_part';
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_content_api_access_check"
  CHECK ("content_api_access" IN ('free_part', 'full'));
-- Accounts that existed before the setting keep serving full stories, as their front ends expect;
-- new accounts start with the safe default.
UPDATE "accounts" SET "content_api_access" = 'full';
