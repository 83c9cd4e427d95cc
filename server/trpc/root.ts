/** The dashboard's tRPC router: one sub-router per area. */
import { auditLogRouter } from "./routers/audit-log";
import { contentOrganiseRouter } from "./routers/content-organise";
import { storiesRouter } from "./routers/content-stories";
import { mailRouter } from "./routers/mail";
import { moderationRouter } from "./routers/moderation";
import { settingsRouter } from "./routers/settings";
import { staffRouter } from "./routers/staff";
import { subscriptionsRouter } from "./routers/subscriptions";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  auditLog: auditLogRouter,
  organise: contentOrganiseRouter,
  stories: storiesRouter,
  mail: mailRouter,
  moderation: moderationRouter,
  settings: settingsRouter,
  staff: staffRouter,
  subscriptions: subscriptionsRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller, e.g. `createCaller({ db, session })` in tests. */
export const createCaller = createCallerFactory(appRouter);
