-- A comment written by the page's own author as the site it was imported from knew them (a WordPress
-- post's author replying, server/imports/comments/wxr.ts): the comments API's is_page_author, besides
-- the page's author_ids that publisher-signed JWTs name.
ALTER TABLE "comments" ADD COLUMN "page_author" BOOLEAN NOT NULL DEFAULT false;
