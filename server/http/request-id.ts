/**
 * Request ids: every response carries one (X-Request-Id), and the log lines of a request's failure
 * name it. A client may send its own (a proxy in front, a test): kept when it looks like an id,
 * replaced otherwise. proxy.ts gives each request one first; apiRoute and the tRPC route read it.
 */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/** The request id a client sent, when it is a sane one (8 to 100 of A-Z a-z 0-9 . _ : -). */
export function requestIdFrom(header: string | null | undefined): string | undefined {
  return header && REQUEST_ID.test(header) ? header : undefined;
}
