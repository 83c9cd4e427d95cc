/**
 * The one list of background jobs. Each is a domain function with its due time in the database
 * (server/jobs/define.ts says what a job is; docs/architecture.md how to add one). The local
 * runner and the Inngest functions run exactly these, by name.
 */
import { surgeWatchJob } from "../engagement/moderation/surges/surges";
import { digestJob, notifyCommentJob } from "../engagement/notifications/notify";
import { importOperationJob } from "../imports/dashboard/job";
import { sendMailJob } from "../mail/outbox";
import { newsletterDigestJob } from "../newsletters/digest";
import { newsletterSendJob } from "../newsletters/send-job";
import { erasureJob } from "../privacy/erasure/requests";
import { buildExportJob } from "../privacy/exports/build";
import { cleanupExportsJob } from "../privacy/exports/cleanup";
import { retentionJob } from "../privacy/retention/retention";
import { publishScheduledStoryJob } from "../publishing/editorial/scheduling";
import { trialRefundJob } from "../subscriptions/checkout/trial-refund";
import { experimentAutoStopJob } from "../subscriptions/offers/experiments";
import { gatewayAbsenceJob, gatewayEventJob } from "../subscriptions/payments/gateway-events";
import { gatewayResumeJob } from "../subscriptions/recurring/gateway-resume";
import { subscriptionLifecycleJob, subscriptionLifecycleSweepJob } from "../subscriptions/recurring/lifecycle";
import { switchPlanJob } from "../subscriptions/recurring/plan-switch-scheduled";
import { retentionOfferJob } from "../subscriptions/self-service/retention-offers";
import { deliverWebhookJob } from "../webhooks/deliveries";
import type { JobDefinition } from "./define";
import { purgeJob } from "./maintenance";

export const JOBS: readonly JobDefinition[] = [
  deliverWebhookJob,
  sendMailJob,
  publishScheduledStoryJob,
  purgeJob,
  gatewayEventJob,
  gatewayAbsenceJob,
  subscriptionLifecycleJob,
  subscriptionLifecycleSweepJob,
  switchPlanJob,
  retentionOfferJob,
  gatewayResumeJob,
  trialRefundJob,
  surgeWatchJob,
  notifyCommentJob,
  digestJob,
  importOperationJob,
  newsletterSendJob,
  newsletterDigestJob,
  retentionJob,
  buildExportJob,
  cleanupExportsJob,
  erasureJob,
  experimentAutoStopJob,
] as JobDefinition[];

const byName = new Map(JOBS.map((definition) => [definition.name, definition]));

export function jobDefinition(name: string): JobDefinition | undefined {
  return byName.get(name);
}
