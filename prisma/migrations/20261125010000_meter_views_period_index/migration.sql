-- A period's meters, reader by reader, per account: what an access check's roster reads at once
-- (server/subscriptions/access.ts, "The period's roster"; docs/subscriptions.md "Speed"). The
-- unique index leads with the reader, so it cannot answer "every reader of this period".
CREATE INDEX "meter_views_period_idx" ON "meter_views" ("account_id", "period_start", "reader_key", "story_id");
