/** Success responses for route handlers. */

/** A JSON answer (`application/json` unless `init` names another type). */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(data);
  // Response.json's own error for what JSON cannot hold (undefined, a function).
  if (text === undefined) return Response.json(data, init);
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new Response(text, { ...init, headers });
}

export function created(data: unknown, init: ResponseInit = {}): Response {
  return json(data, { ...init, status: 201 });
}

export function noContent(init: ResponseInit = {}): Response {
  return new Response(null, { ...init, status: 204 });
}
