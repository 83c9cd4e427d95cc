-- The publication's own preview page (a template with {token}, optionally {slug}); null: Masthead's generic preview.
ALTER TABLE "accounts" ADD COLUMN "preview_url" TEXT;
