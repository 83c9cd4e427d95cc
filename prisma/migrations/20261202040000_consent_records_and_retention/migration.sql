-- CreateTable
CREATE TABLE "consent_texts" (
    "id" SERIAL NOT NULL,
    "sha256" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consent_texts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consent_records" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "purpose" TEXT NOT NULL,
    "given" BOOLEAN NOT NULL,
    "channel" TEXT NOT NULL,
    "text_id" INTEGER,
    "locale" TEXT,
    "member_consent_id" INTEGER,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "consent_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "privacy_settings" (
    "account_id" INTEGER NOT NULL,
    "ip_retention_days" INTEGER NOT NULL DEFAULT 30,
    "log_retention_days" INTEGER NOT NULL DEFAULT 90,
    "deleted_comment_retention_days" INTEGER NOT NULL DEFAULT 30,
    "erased_reader_comments" TEXT NOT NULL DEFAULT 'keep',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "privacy_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "retention_runs" (
    "account_id" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL,
    "removed" JSONB NOT NULL DEFAULT '{}',
    "complete" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "retention_runs_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "consent_texts_sha256_key" ON "consent_texts"("sha256");

-- CreateIndex
CREATE INDEX "consent_records_account_id_member_id_occurred_at_idx" ON "consent_records"("account_id", "member_id", "occurred_at");

-- CreateIndex
CREATE INDEX "consent_records_member_consent_id_idx" ON "consent_records"("member_consent_id");

-- AddForeignKey
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_text_id_fkey" FOREIGN KEY ("text_id") REFERENCES "consent_texts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_member_consent_id_fkey" FOREIGN KEY ("member_consent_id") REFERENCES "member_consents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_runs" ADD CONSTRAINT "retention_runs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Consent records are append-only: a record is never changed. The one change allowed is the
-- database's own ON DELETE SET NULL when the imported member_consents row it relates to goes.
-- Deleting (erasure, an account's deletion) stays allowed.
CREATE FUNCTION cr_consent_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.account_id, NEW.member_id, NEW.purpose, NEW.given, NEW.channel, NEW.text_id, NEW.locale, NEW.occurred_at)
     IS DISTINCT FROM
     (OLD.id, OLD.account_id, OLD.member_id, OLD.purpose, OLD.given, OLD.channel, OLD.text_id, OLD.locale, OLD.occurred_at)
     OR (NEW.member_consent_id IS NOT NULL AND NEW.member_consent_id IS DISTINCT FROM OLD.member_consent_id) THEN
    RAISE EXCEPTION 'consent records are append-only' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER cr_consent_records_append_only BEFORE UPDATE ON "consent_records"
  FOR EACH ROW EXECUTE FUNCTION cr_consent_records_append_only();

-- The consents recorded before this migration, as records: imported consents (member_consents,
-- related by id), and newsletter subscriptions' consent and unsubscribe (no wording was kept then).
INSERT INTO "consent_records" ("account_id", "member_id", "purpose", "given", "channel", "member_consent_id", "occurred_at")
SELECT "account_id", "member_id", 'list:' || "list", true, 'import', "id", "consented_at" FROM "member_consents";

INSERT INTO "consent_records" ("account_id", "member_id", "purpose", "given", "channel", "occurred_at")
SELECT "account_id", "member_id", 'newsletter:' || "newsletter_id", true,
  CASE WHEN "consent_source" = 'widget' THEN 'widget'
       WHEN "consent_source" = 'self_service' THEN 'member_page'
       WHEN "consent_source" = 'dashboard' THEN 'staff'
       WHEN "consent_source" LIKE 'import%' THEN 'import'
       ELSE 'api' END,
  "consented_at"
FROM "newsletter_subscriptions" WHERE "status" <> 'unsubscribed' OR "consent_source" <> 'audience';

INSERT INTO "consent_records" ("account_id", "member_id", "purpose", "given", "channel", "occurred_at")
SELECT "account_id", "member_id", 'newsletter:' || "newsletter_id", false,
  CASE WHEN "unsubscribe_source" IN ('one_click', 'link') THEN 'unsubscribe_link'
       WHEN "unsubscribe_source" = 'self_service' THEN 'member_page'
       WHEN "unsubscribe_source" = 'dashboard' THEN 'staff'
       WHEN "unsubscribe_source" = 'complaint' THEN 'complaint'
       ELSE 'api' END,
  "unsubscribed_at"
FROM "newsletter_subscriptions" WHERE "status" = 'unsubscribed' AND "unsubscribed_at" IS NOT NULL;
