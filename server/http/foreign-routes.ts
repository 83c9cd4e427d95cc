/**
 * The paths under /api whose answers come from another library's handler: next-auth's sign-in
 * endpoints and the dashboard's tRPC procedures. They keep the API's promise that a client's
 * mistake on any /api path is a 4xx in the JSON error shape (server/http/errors.ts):
 * - a method the library does not serve: 405 with `Allow` (Next.js alone answers an empty 405);
 * - a JSON body that does not parse: 400, before the library reads it (next-auth throws on it;
 *   tRPC answers it itself, in its own JSON shape the dashboard's client reads);
 * - a body over LIBRARY_MAX_BODY_BYTES: 413, before the library reads it (neither limits it);
 * - an error the library answers as plain text (next-auth: "This action with HTTP GET is not
 *   supported"): the same status in the JSON shape, with the library's sentence as the message
 *   (a 5xx is logged and answered "Internal server error.");
 * - anything thrown: logged, 500 INTERNAL.
 * What the library answers otherwise (JSON, redirects, its HTML pages) passes unchanged.
 */
import { randomUUID } from "node:crypto";

import { AppError, ERROR_STATUS, type AppErrorCode } from "../errors";
import { log } from "../log";
import { requestIdFrom } from "./edge.js";
import { errorResponse, methodNotAllowed, toErrorResponse } from "./errors";
import { isJsonType, mediaTypeOf, parseJsonBody, readBodyBytes } from "./request-body";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler<A extends unknown[]> = (request: Request, ...rest: A) => Promise<Response>;

/** The error code a library's status stands for (the first code with that status). */
function codeOf(status: number): AppErrorCode {
  const found = Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] as AppErrorCode | undefined;
  return found ?? (status >= 500 ? "INTERNAL" : "BAD_REQUEST");
}

/**
 * The most a request to a library's path may send (413 beyond, before the library reads it): the
 * dashboard's largest saves, a story with all its cards, fit well within it.
 */
export const LIBRARY_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The body, read from a clone within LIBRARY_MAX_BODY_BYTES (PAYLOAD_TOO_LARGE beyond; the library
 * then reads the original, which holds no more than that); with `json`, BAD_REQUEST when it is
 * sent as JSON and does not parse.
 */
async function checkBody(request: Request, json: boolean): Promise<void> {
  if (!request.body) return;
  const bytes = await readBodyBytes(request.clone(), LIBRARY_MAX_BODY_BYTES).catch((error: unknown) => {
    // Refused: the original is never read either (cancelling both branches lets the body go).
    request.body?.cancel().catch(() => undefined);
    throw error;
  });
  if (!json || !isJsonType(mediaTypeOf(request))) return;
  const text = new TextDecoder().decode(bytes);
  if (text.trim()) parseJsonBody(text);
}

/** A plain-text error the library answered, in the API's JSON shape. */
async function asJsonError(response: Response, requestId: string, library: string): Promise<Response> {
  const text = (await response.text()).replace(/^Error:\s*/, "").trim();
  const code = codeOf(response.status);
  if (response.status >= 500) {
    log.error(`${library} answered an error`, { requestId, status: response.status, error: text });
    return errorResponse(new AppError(code, "Internal server error."), requestId);
  }
  // next-auth answers some refusals with an object it stringified: no sentence to pass on.
  const sentence = text && !/^\[object \w+\]$/.test(text) ? text : "The request is not valid.";
  return errorResponse(new AppError(code, sentence), requestId);
}

/**
 * Route exports for `handler`, which serves `served`; `library` names it in the log. The other
 * methods answer 405 (HEAD and OPTIONS stay Next.js's own).
 */
export function foreignRoutes<A extends unknown[]>(
  handler: Handler<A>,
  options: { served: readonly Method[]; library: string; answersMalformedJson?: boolean },
): Record<Method, Handler<A>> {
  const { served, library } = options;
  const wrapped: Handler<A> = async (request, ...rest) => {
    const requestId = requestIdFrom(request.headers.get("x-request-id")) ?? randomUUID();
    try {
      await checkBody(request, !options.answersMalformedJson);
      const response = await handler(request, ...rest);
      const type = response.headers.get("content-type") ?? "";
      if (response.status >= 400 && (type === "" || type.startsWith("text/plain"))) {
        return asJsonError(response, requestId, library);
      }
      return response;
    } catch (error) {
      return toErrorResponse(error, requestId);
    }
  };
  const notAllowed: Handler<A> = async (request, ..._rest) =>
    methodNotAllowed(served, requestIdFrom(request.headers.get("x-request-id")) ?? randomUUID());
  return Object.fromEntries(METHODS.map((m) => [m, served.includes(m) ? wrapped : notAllowed])) as Record<
    Method,
    Handler<A>
  >;
}
