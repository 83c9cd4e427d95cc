/**
 * Errors → responses, for every route handler. One body shape everywhere:
 *   {"error": {"code": "BAD_REQUEST", "message": "…", "details": [{"field": "query.limit", "issue": "…"}]}}
 * Unexpected errors are logged with the request id and answered with a fixed message: no stack,
 * no SQL, no internals.
 */
import { ZodError } from "zod";

import {
  AppError,
  ERROR_STATUS,
  isAppError,
  prismaErrorToAppError,
  zodIssuesToDetails,
  type AppErrorCode,
  type ErrorDetail,
} from "../errors";
import { log } from "../log";
import { json } from "./respond";

export type ErrorBody = { error: { code: AppErrorCode; message: string; details?: ErrorDetail[] } };

export function errorResponse(error: AppError, requestId: string, extraHeaders: Record<string, string> = {}): Response {
  const body: ErrorBody = {
    error: { code: error.code, message: error.message, ...(error.details?.length ? { details: error.details } : {}) },
  };
  return json(body, {
    status: ERROR_STATUS[error.code],
    headers: { "X-Request-Id": requestId, "Cache-Control": "no-store", ...extraHeaders, ...error.headers },
  });
}

/** Any thrown value as a response: AppError as itself, zod as 400, Prisma's known errors by code, the rest as 500. */
export function toErrorResponse(
  error: unknown,
  requestId: string,
  extraHeaders: Record<string, string> = {},
): Response {
  if (isAppError(error)) return errorResponse(error, requestId, extraHeaders);
  if (error instanceof ZodError) {
    return errorResponse(
      new AppError("BAD_REQUEST", "The request is not valid.", { details: zodIssuesToDetails(error) }),
      requestId,
      extraHeaders,
    );
  }
  const known = prismaErrorToAppError(error);
  if (known) return errorResponse(known, requestId, extraHeaders);
  log.error("unexpected error", { requestId, error });
  return errorResponse(new AppError("INTERNAL", "Internal server error."), requestId, extraHeaders);
}

/** The `Allow` of a path that serves `methods`: HEAD wherever GET is, OPTIONS always. */
export function allowHeader(methods: readonly string[]): string {
  return [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

/** 405 for a method a path that serves `methods` does not, with its `Allow`. */
export function methodNotAllowed(methods: readonly string[], requestId: string): Response {
  return errorResponse(
    new AppError("METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")} on this path.`, {
      headers: { Allow: allowHeader(methods) },
    }),
    requestId,
  );
}
