-- Import records name the site their source ids belong to, so two sites imported into one account
-- (two WordPress blogs, each with its post 42) are two items. Existing records keep the empty
-- site, which any site's run of the same source still matches (a re-run of the same file skips).
ALTER TABLE "import_records" ADD COLUMN "site" TEXT NOT NULL DEFAULT '';

DROP INDEX "import_records_account_id_source_kind_source_id_key";

CREATE UNIQUE INDEX "import_records_account_id_source_kind_source_id_site_key" ON "import_records"("account_id", "source", "kind", "source_id", "site");
