/**
 * tRPC for the dashboard (admin only; the public API is REST under app/api/v1).
 *
 * 1. Context     the database and the next-auth session of the request.
 * 2. Errors      AppError and Prisma's known errors become the matching tRPC code; the wire shape
 *                keeps zod's flattened errors for forms and AppError's `{ field, issue }` details.
 * 3. Procedures  publicProcedure, protectedProcedure (signed in), adminProcedure(roles).
 *
 * Procedures stay thin: `.input(Z…).output(Z…).query(({ ctx, input }) => service(ctx.db, { actor: ctx.actor, ...input }))`.
 */
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import superjson from "superjson";
import { z, ZodError } from "zod";

import { getEnv } from "../../env.js";
import { staffActor } from "../auth/actor";
import type { AdminSession } from "../auth/admin-session";
import { getAdminSession } from "../auth/next-auth";
import { hasAnyRole, type AdminRole } from "../auth/roles";
import { getDb, type Db } from "../db";
import {
  isAppError,
  prismaErrorToAppError,
  zodIssuesToDetails,
  type AppError,
  type AppErrorCode,
  type ErrorDetail,
} from "../errors";
import { assertSafeInput } from "../validation";

// ─── 1. Context ──────────────────────────────────────────────────────────────────────────────
export type TRPCContext = {
  db: Db;
  session: AdminSession | null;
  /** The HTTP request's id (X-Request-Id): errors carry it as `data.requestId` for the dashboard's error page. */
  requestId?: string;
};

/** For the HTTP handler (app/api/trpc). Tests build the context themselves and use createCaller. */
export async function createTRPCContext(options: { requestId?: string } = {}): Promise<TRPCContext> {
  return { db: await getDb(), session: await getAdminSession(), requestId: options.requestId };
}

// ─── 2. Errors ───────────────────────────────────────────────────────────────────────────────
const TRPC_CODE: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  PAYMENT_REQUIRED: "PAYMENT_REQUIRED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  NOT_ACCEPTABLE: "BAD_REQUEST",
  CONFLICT: "CONFLICT",
  // tRPC has no "gone"; the HTTP status below still says 410.
  GONE: "NOT_FOUND",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  UNPROCESSABLE: "UNPROCESSABLE_CONTENT",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/** The AppError behind a tRPC error, if any (thrown by a service, or a known Prisma error). */
function appErrorOf(error: TRPCError): AppError | undefined {
  return isAppError(error.cause) ? error.cause : undefined;
}

/** Wire shape of `error.data.appError`: the REST API's `{ code, details }` (docs/api-conventions.md). */
type AppErrorData = { code: AppErrorCode; details?: ErrorDetail[] };

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  // Never a stack trace in a response, whatever NODE_ENV says (tRPC adds one in development).
  isDev: false,
  errorFormatter({ shape, error, ctx }) {
    const app = appErrorOf(error);
    const zodError = error.code === "BAD_REQUEST" && error.cause instanceof ZodError ? error.cause : undefined;
    let message = shape.message;
    if (zodError) message = "The input is not valid.";
    // Unexpected failures are logged by the HTTP handler, never described to the client.
    else if (error.code === "INTERNAL_SERVER_ERROR" && !app) message = "Something went wrong on our side.";
    const appError: AppErrorData | null = app
      ? { code: app.code, ...(app.details ? { details: app.details } : {}) }
      : zodError
        ? { code: "BAD_REQUEST", details: zodIssuesToDetails(zodError) }
        : null;
    return {
      ...shape,
      message,
      data: {
        ...shape.data,
        httpStatus: app ? app.status : shape.data.httpStatus,
        appError,
        zodError: zodError ? z.flattenError(zodError) : null,
        requestId: ctx?.requestId ?? null,
      },
    };
  },
});

/** Services throw AppError; give it the matching tRPC code so callers (and createCaller) see it. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") {
    const cause = result.error.cause;
    const app = isAppError(cause) ? cause : prismaErrorToAppError(cause);
    if (app) throw new TRPCError({ code: TRPC_CODE[app.code], message: app.message, cause: app });
  }
  return result;
});

/** The input guard REST routes run too (server/validation.ts): before any schema sees the input. */
const guardInput = t.middleware(async ({ getRawInput, next }) => {
  assertSafeInput(await getRawInput());
  return next();
});

// ─── 3. Procedures ───────────────────────────────────────────────────────────────────────────
export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** No session needed. */
const publicProcedure = t.procedure.use(mapAppErrors).use(guardInput);

/** Any signed-in admin user; adds `ctx.actor` (id, accountId, roles) for services. */
const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  return next({ ctx: { session: ctx.session, actor: staffActor(ctx.session.user) } });
});

/** A signed-in admin user holding one of `roles` (OWNER passes every check). */
export const adminProcedure = (roles: readonly AdminRole[]) =>
  protectedProcedure.use(({ ctx, next }) => {
    if (!hasAnyRole(ctx.actor.roles, roles))
      throw new TRPCError({ code: "FORBIDDEN", message: "Your roles do not allow this." });
    return next();
  });

/** Owners: users and keys, settings, webhooks, the audit log and the outbox. */
export const ownerProcedure = adminProcedure(["OWNER"]);

/** Editors (and owners): stories and what organises them. */
export const editorProcedure = adminProcedure(["EDITOR"]);

/** The app's own URL, for the links that procedures write (invitations, reset e-mails, story URLs). */
export const appUrl = () => getEnv().APP_URL;
