-- CreateTable
CREATE TABLE "import_runs" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "file_digest" TEXT NOT NULL,
    "actor_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'running',
    "counts" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "import_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_records" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "created" BOOLEAN NOT NULL,
    "source_parent_id" TEXT,
    "run_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_runs_account_id_started_at_idx" ON "import_runs"("account_id", "started_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "import_records_account_id_source_kind_source_id_key" ON "import_records"("account_id", "source", "kind", "source_id");

-- AddForeignKey
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "admin_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_records" ADD CONSTRAINT "import_records_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
