-- The index (author_id, page_id, created_at) served the duplicate check of a comment create before
-- the reader's claim took its place (20261124190000_comment_claims). Nothing reads comments by
-- author and page any more: a reader's comments are read by (author_id, created_at, id). Each
-- create no longer writes it.
DROP INDEX IF EXISTS "comments_author_id_page_id_created_at_idx";
