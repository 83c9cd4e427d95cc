-- AlterTable
ALTER TABLE "newsletter_subscriptions" ADD COLUMN     "confirm_nonce" TEXT;

-- AlterTable
ALTER TABLE "outgoing_emails" ADD COLUMN     "sender" TEXT;
