-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "amp_direct_calls" BOOLEAN NOT NULL DEFAULT false;
