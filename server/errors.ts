/**
 * The one error type that domain code throws. Transports (route handlers, tRPC) map it to a
 * response with `ERROR_STATUS`; nothing else builds error responses.
 */
import { type z } from "zod";

/** Error code → HTTP status. The codes are the `error.code` strings clients see. */
export const ERROR_STATUS = {
  /** Malformed JSON, or parameters that fail validation. */
  BAD_REQUEST: 400,
  /** Missing or wrong key, token or credentials. */
  UNAUTHORIZED: 401,
  /** Paywalled: the reader needs a subscription. */
  PAYMENT_REQUIRED: 402,
  /** Authenticated, but not allowed. */
  FORBIDDEN: 403,
  /** Unknown resource, or one outside the caller's account. */
  NOT_FOUND: 404,
  /** Wrong HTTP method (the response carries `Allow`). */
  METHOD_NOT_ALLOWED: 405,
  /** `Accept` rules out JSON on a JSON endpoint. */
  NOT_ACCEPTABLE: 406,
  /** The request conflicts with the current state (duplicate, already done). */
  CONFLICT: 409,
  /** The resource existed and is gone. */
  GONE: 410,
  /** Body larger than the limit. */
  PAYLOAD_TOO_LARGE: 413,
  /** Content-Type the endpoint does not take. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Valid shape, but a business rule is broken. */
  UNPROCESSABLE: 422,
  /** Too many requests (the response carries `Retry-After`). */
  RATE_LIMITED: 429,
  /** A bug or an unexpected failure: logged with the request id, never detailed to the client. */
  INTERNAL: 500,
  /** A dependency (the database) is down. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof ERROR_STATUS;
/** One problem with one input field: `field` is a dotted path ("subscription.payment.amount_cents"). */
export type ErrorDetail = { field: string; issue: string };

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: ErrorDetail[];
  /** Extra response headers (Allow, Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** zod issues as `{ field, issue }`, with `prefix` naming where they came from ("query", "body"). */
export function zodIssuesToDetails(error: z.ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.map((issue) => {
    const pathText = issue.path.map(String).join(".");
    const field = [prefix, pathText].filter(Boolean).join(".") || (prefix ?? "(root)");
    // A number read from text (z.coerce) that is missing or not one reaches zod as NaN: say so.
    if (issue.code === "invalid_type" && issue.expected === "number" && / received NaN$/.test(issue.message)) {
      return { field, issue: "must be a number (it is missing or is not one)" };
    }
    return { field, issue: issue.message };
  });
}

/** Prisma's known request errors, recognised by code rather than class (bundling can duplicate classes). */
export function prismaErrorToAppError(error: unknown): AppError | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code === "P2025") return new AppError("NOT_FOUND", "Not found.", { cause: error });
  if (code === "P2002")
    return new AppError("CONFLICT", "A resource with the same unique value already exists.", { cause: error });
  // PostgreSQL refuses text it cannot store (22021: the NUL character U+0000; 22P05: an unpaired
  // surrogate in JSON): the client sent it, so it is a 400 wherever it slipped past validation.
  const original = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } }).meta
    ?.driverAdapterError?.cause?.originalCode;
  if (original === "22021" || original === "22P05") {
    return new AppError(
      "BAD_REQUEST",
      "The request contains a character that cannot be stored (U+0000, or an unpaired surrogate).",
      { cause: error },
    );
  }
  return undefined;
}
