/** Success responses for route handlers. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, init);
}

export function created(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, { ...init, status: 201 });
}

export function noContent(init: ResponseInit = {}): Response {
  return new Response(null, { ...init, status: 204 });
}
