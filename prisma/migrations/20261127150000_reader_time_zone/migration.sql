-- AlterTable
ALTER TABLE "reader_notification_prefs" ADD COLUMN     "time_zone" TEXT;
