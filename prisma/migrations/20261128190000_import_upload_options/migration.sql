-- The options an owner gave an upload on the dashboard's Import page (dashboard.schema.ts
-- ZImportOptions: site, announce, the old Ghost site's address, the export's instant, the
-- newsletter, the plan mapping), used by its dry run and its import alike; {} for none.
ALTER TABLE "import_uploads" ADD COLUMN "options" JSONB NOT NULL DEFAULT '{}';
