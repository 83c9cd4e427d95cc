-- The registration wall (docs/subscriptions.md "Registration wall"): an account may ask anonymous
-- readers to sign up, free, after N free stories of their own meter, before the paid meter applies.
-- Kept beside the paid meter's settings, so the settings' existing trigger (topic "meter") drops the
-- cached rules on every instance when an owner saves them. The reads of the registration meter are
-- meter_views rows under the reader key "w:<readerId>" (server/subscriptions/meter-period.ts).
ALTER TABLE "meter_settings" ADD COLUMN "registration_wall" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "meter_settings" ADD COLUMN "registration_free_stories" INTEGER NOT NULL DEFAULT 3;
ALTER TABLE "meter_settings" ADD CONSTRAINT "regwall_free_stories_range"
  CHECK ("registration_free_stories" >= 0 AND "registration_free_stories" <= 1000);
