-- The zone the dashboard shows times in (Settings → Site): one format, with the zone, for all staff.
ALTER TABLE "accounts" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
