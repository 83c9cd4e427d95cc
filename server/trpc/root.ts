/** The dashboard's tRPC router: one sub-router per area. */
import { auditLogRouter } from "./routers/audit-log";
import { communityRouter } from "./routers/community";
import { contentOrganiseRouter } from "./routers/content-organise";
import { storiesRouter } from "./routers/content-stories";
import { dsaRouter } from "./routers/dsa";
import { erasureRouter } from "./routers/erasure";
import { importsRouter } from "./routers/imports";
import { invoicesRouter } from "./routers/invoices";
import { languagesRouter } from "./routers/languages";
import { loginProvidersRouter } from "./routers/login-providers";
import { mailRouter } from "./routers/mail";
import { mediaRouter } from "./routers/media";
import { moderationRouter } from "./routers/moderation";
import { moderationSurgesRouter } from "./routers/moderation-surges";
import { newsletterSendsRouter } from "./routers/newsletter-sends";
import { newsletterStatsRouter } from "./routers/newsletter-stats";
import { newslettersRouter } from "./routers/newsletters";
import { oauthClientsRouter } from "./routers/oauth-clients";
import { offersRouter } from "./routers/offers";
import { pageRulesRouter } from "./routers/page-rules";
import { paymentGatewaysRouter } from "./routers/payment-gateways";
import { paywallMeterRouter } from "./routers/paywall-meter";
import { paywallPointRouter } from "./routers/paywall-point";
import { privacyRouter } from "./routers/privacy";
import { privacyExportsRouter } from "./routers/privacy-exports";
import { retentionOfferRouter } from "./routers/retention-offer";
import { revenueRouter } from "./routers/revenue";
import { scoringRouter } from "./routers/scoring";
import { settingsRouter } from "./routers/settings";
import { staffRouter } from "./routers/staff";
import { storyConversionsRouter } from "./routers/story-conversions";
import { subscriberSubscriptionsRouter } from "./routers/subscriber-subscriptions";
import { subscribersRouter } from "./routers/subscribers";
import { subscriptionsRouter } from "./routers/subscriptions";
import { ugcRouter } from "./routers/ugc";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  auditLog: auditLogRouter,
  community: communityRouter,
  organise: contentOrganiseRouter,
  dsa: dsaRouter,
  stories: storiesRouter,
  erasure: erasureRouter,
  imports: importsRouter,
  invoices: invoicesRouter,
  languages: languagesRouter,
  loginProviders: loginProvidersRouter,
  mail: mailRouter,
  media: mediaRouter,
  moderation: moderationRouter,
  moderationSurges: moderationSurgesRouter,
  newsletterStats: newsletterStatsRouter,
  newsletters: newslettersRouter,
  newsletterSends: newsletterSendsRouter,
  oauthClients: oauthClientsRouter,
  offers: offersRouter,
  pageRules: pageRulesRouter,
  paywallMeter: paywallMeterRouter,
  paywallPoint: paywallPointRouter,
  paymentGateways: paymentGatewaysRouter,
  privacy: privacyRouter,
  retentionOffer: retentionOfferRouter,
  revenue: revenueRouter,
  scoring: scoringRouter,
  settings: settingsRouter,
  staff: staffRouter,
  storyConversions: storyConversionsRouter,
  subscribers: subscribersRouter,
  privacyExports: privacyExportsRouter,
  subscriberSubscriptions: subscriberSubscriptionsRouter,
  subscriptions: subscriptionsRouter,
  ugc: ugcRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller, e.g. `createCaller({ db, session })` in tests. */
export const createCaller = createCallerFactory(appRouter);
