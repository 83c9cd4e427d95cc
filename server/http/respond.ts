/** Success responses for route handlers. */
import { LENGTH_HEADER, passesBodyHeaders } from "./edge.js";

/**
 * A JSON answer. Its length goes to the server in front (edge.js LENGTH_HEADER), so an answer under
 * 1 kB is sent as it is rather than gzipped in chunks.
 */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(data);
  // Response.json's own error for what JSON cannot hold (undefined, a function).
  if (text === undefined) return Response.json(data, init);
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  if (passesBodyHeaders()) headers.set(LENGTH_HEADER, String(Buffer.byteLength(text)));
  return new Response(text, { ...init, headers });
}

export function created(data: unknown, init: ResponseInit = {}): Response {
  return json(data, { ...init, status: 201 });
}

export function noContent(init: ResponseInit = {}): Response {
  return new Response(null, { ...init, status: 204 });
}
