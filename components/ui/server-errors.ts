/**
 * What a failed tRPC call says, split for a form: the problems of the form's own fields (zod's,
 * when the input did not parse, and the server's `{ field, issue }` details, e.g. a slug in use),
 * keyed by field, and the rest (a message, details about fields the form does not have).
 */
import { TRPCClientError } from "@trpc/client";

export type FieldIssue = { field: string; issue: string };

export type ServerErrors<F extends string> = {
  /** The error's sentence, or null when there is no error. */
  message: string | null;
  /** The first problem of each of the form's fields. */
  fields: Partial<Record<F, string>>;
  /** Problems the form cannot show next to a field. */
  others: FieldIssue[];
};

type ErrorData = {
  zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null;
  appError?: { code?: string; details?: FieldIssue[] } | null;
};

function noErrors<F extends string>(): ServerErrors<F> {
  return { message: null, fields: {}, others: [] };
}

/** The server's `{ field, issue }` details of a tRPC error (none for any other error). */
export function errorDetails(error: unknown): FieldIssue[] {
  if (!(error instanceof TRPCClientError)) return [];
  return (error.data as ErrorData | undefined)?.appError?.details ?? [];
}

/**
 * For a failure on the server's side (5xx): the id of the request that failed (X-Request-Id), which
 * finds it in the server's log. Client mistakes (4xx) have none: the message says what to fix.
 */
export function errorReference(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { requestId?: unknown; httpStatus?: unknown } | undefined;
  const status = typeof data?.httpStatus === "number" ? data.httpStatus : 500;
  return status >= 500 && typeof data?.requestId === "string" ? data.requestId : undefined;
}

/** The error's application code (CONFLICT, NOT_FOUND …), when the server gave one. */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  return (error.data as ErrorData | undefined)?.appError?.code;
}

/**
 * Split `error` over `fields`: a detail about "slug" or "cards.0.text" belongs to the field named
 * by its first segment when the form has it.
 */
export function serverErrors<F extends string>(error: unknown, fields: readonly F[] = []): ServerErrors<F> {
  if (!error) return noErrors();
  const known = new Set<string>(fields);
  const out: Partial<Record<F, string>> = {};
  const others: FieldIssue[] = [];
  const place = (field: string, issue: string) => {
    const key = field.split(".")[0]!;
    if (known.has(key)) out[key as F] ??= issue;
    else others.push({ field, issue });
  };
  if (error instanceof TRPCClientError) {
    const data = error.data as ErrorData | undefined;
    const details = data?.appError?.details ?? [];
    for (const detail of details) place(detail.field, detail.issue);
    // zod's flattened errors repeat the details; they only add fields the details did not name.
    for (const [field, issues] of Object.entries(data?.zodError?.fieldErrors ?? {}))
      if (issues?.[0] && known.has(field)) out[field as F] ??= issues[0];
  }
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return { message, fields: out, others };
}

/** A form's own problems (its client-side check) in the same shape, so both show alike. */
export function fieldProblems<F extends string>(fields: Partial<Record<F, string>>): ServerErrors<F> {
  return Object.keys(fields).length
    ? { message: "Please correct the highlighted fields.", fields, others: [] }
    : noErrors();
}
