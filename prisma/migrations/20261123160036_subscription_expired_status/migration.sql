-- AlterEnum
ALTER TYPE "subscription_status" ADD VALUE 'expired';
