-- CreateTable
CREATE TABLE "comment_scoring_settings" (
    "account_id" INTEGER NOT NULL,
    "adaptive" BOOLEAN NOT NULL DEFAULT false,
    "external_scorer" BOOLEAN NOT NULL DEFAULT false,
    "shadow_adaptive" BOOLEAN,
    "shadow_external" BOOLEAN,
    "shadow_threshold" INTEGER,
    "shadow_since" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comment_scoring_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "comment_term_stats" (
    "account_id" INTEGER NOT NULL,
    "term" TEXT NOT NULL,
    "approved" INTEGER NOT NULL DEFAULT 0,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "spam" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "comment_term_stats_pkey" PRIMARY KEY ("account_id","term")
);

-- CreateTable
CREATE TABLE "comment_decision_terms" (
    "comment_id" INTEGER NOT NULL,
    "account_id" INTEGER NOT NULL,
    "outcome" "comment_moderation_state" NOT NULL,
    "terms" TEXT[],

    CONSTRAINT "comment_decision_terms_pkey" PRIMARY KEY ("comment_id")
);

-- CreateTable
CREATE TABLE "comment_shadow_scores" (
    "comment_id" INTEGER NOT NULL,
    "account_id" INTEGER NOT NULL,
    "live_held" BOOLEAN NOT NULL,
    "live_toxicity" DOUBLE PRECISION NOT NULL,
    "live_spam" BOOLEAN NOT NULL,
    "shadow_held" BOOLEAN NOT NULL,
    "shadow_toxicity" DOUBLE PRECISION NOT NULL,
    "shadow_spam" BOOLEAN NOT NULL,
    "shadow_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "shadow_adaptive" BOOLEAN NOT NULL,
    "shadow_external" BOOLEAN NOT NULL,
    "shadow_threshold" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comment_shadow_scores_pkey" PRIMARY KEY ("comment_id")
);

-- CreateIndex
CREATE INDEX "comment_shadow_scores_account_id_created_at_idx" ON "comment_shadow_scores"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "comment_scoring_settings" ADD CONSTRAINT "comment_scoring_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_term_stats" ADD CONSTRAINT "comment_term_stats_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_decision_terms" ADD CONSTRAINT "comment_decision_terms_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_shadow_scores" ADD CONSTRAINT "comment_shadow_scores_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (the Prisma schema cannot express triggers) -------------------------------------

-- The adaptive layer's counts (server/engagement/moderation/adaptive.ts) are kept by the database
-- from comment_decision_terms, whoever writes it: a row's terms count for its outcome in
-- comment_term_stats (and the term '' counts the decision itself). A changed row moves its counts
-- from the old outcome and terms to the new ones, a deleted row (the comment deleted, or sent back
-- to undecided) takes them away: a comment counts once, for its latest decision, never twice.
-- One statement for both moves, in term order ('' first): two decisions at once lock the
-- account's rows in the same order, so one waits for the other and they never deadlock.
CREATE OR REPLACE FUNCTION masthead_comment_decision_terms_counted() RETURNS trigger AS $$
DECLARE
  old_terms text[] := '{}';
  new_terms text[] := '{}';
  old_outcome text := NULL;
  new_outcome text := NULL;
  old_account integer := NULL;
  new_account integer := NULL;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_terms := array_append(coalesce(OLD.terms, '{}'), '');
    old_outcome := OLD.outcome::text;
    old_account := OLD.account_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_terms := array_append(coalesce(NEW.terms, '{}'), '');
    new_outcome := NEW.outcome::text;
    new_account := NEW.account_id;
  END IF;
  INSERT INTO comment_term_stats AS s (account_id, term, approved, rejected, spam)
  SELECT moves.account_id, moves.term, sum(moves.approved)::int, sum(moves.rejected)::int, sum(moves.spam)::int
  FROM (
    SELECT old_account AS account_id, t AS term,
           CASE WHEN old_outcome = 'approved' THEN -1 ELSE 0 END AS approved,
           CASE WHEN old_outcome = 'rejected' THEN -1 ELSE 0 END AS rejected,
           CASE WHEN old_outcome = 'spam' THEN -1 ELSE 0 END AS spam
    FROM unnest(old_terms) AS t
    UNION ALL
    SELECT new_account, t,
           CASE WHEN new_outcome = 'approved' THEN 1 ELSE 0 END,
           CASE WHEN new_outcome = 'rejected' THEN 1 ELSE 0 END,
           CASE WHEN new_outcome = 'spam' THEN 1 ELSE 0 END
    FROM unnest(new_terms) AS t
  ) AS moves
  GROUP BY moves.account_id, moves.term
  HAVING sum(moves.approved) <> 0 OR sum(moves.rejected) <> 0 OR sum(moves.spam) <> 0
  ORDER BY moves.account_id, moves.term
  ON CONFLICT (account_id, term) DO UPDATE SET
    approved = s.approved + EXCLUDED.approved,
    rejected = s.rejected + EXCLUDED.rejected,
    spam = s.spam + EXCLUDED.spam;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER comment_decision_terms_counted
  AFTER INSERT OR UPDATE OR DELETE ON comment_decision_terms
  FOR EACH ROW EXECUTE FUNCTION masthead_comment_decision_terms_counted();

-- A comment's decision row follows its moderation state, whoever changes it (a moderator, undo,
-- an edit that sends an approved comment back to the queue, SQL by hand): undecided takes its
-- counts away, another decision moves them. The decision's service writes the terms.
CREATE OR REPLACE FUNCTION masthead_comment_decision_followed() RETURNS trigger AS $$
BEGIN
  IF NEW.moderation_state = 'undecided' THEN
    DELETE FROM comment_decision_terms WHERE comment_id = NEW.id;
  ELSE
    UPDATE comment_decision_terms SET outcome = NEW.moderation_state
    WHERE comment_id = NEW.id AND outcome <> NEW.moderation_state;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER comments_decision_followed
  AFTER UPDATE OF moderation_state ON comments
  FOR EACH ROW WHEN (OLD.moderation_state IS DISTINCT FROM NEW.moderation_state)
  EXECUTE FUNCTION masthead_comment_decision_followed();

-- The scoring settings are kept in each process with the moderation settings (topic "moderation",
-- decision 0004): every write announces it.
CREATE TRIGGER comment_scoring_settings_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON comment_scoring_settings
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('moderation');
