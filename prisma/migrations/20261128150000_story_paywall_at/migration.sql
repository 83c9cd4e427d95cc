-- Where a story's free part ends: the number of its story elements (counted across its cards, in
-- order) that a reader without access to the story sees; NULL: no split point stored (each channel
-- uses its own default). Set by imports that carry one (Ghost's <!--members-only--> / paywall card);
-- returned as "paywall-at" by the content API.
ALTER TABLE "stories" ADD COLUMN "paywall_at" INTEGER;
ALTER TABLE "stories" ADD CONSTRAINT "stories_paywall_at_check" CHECK ("paywall_at" IS NULL OR "paywall_at" >= 0);
