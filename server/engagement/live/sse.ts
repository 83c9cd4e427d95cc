/**
 * Server-sent events as bytes (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 * each event encoded once and the same bytes written to every stream of a page.
 */
const encoder = new TextEncoder();

/** One event: `event:` name, `id:` (the cursor the browser sends back as Last-Event-ID), JSON data on one line. */
export function sseEvent(name: string, data: unknown, id?: string): Uint8Array {
  const lines = [`event: ${name}`];
  if (id !== undefined) lines.push(`id: ${id}`);
  // JSON.stringify never emits a raw line break: the data is one `data:` line.
  lines.push(`data: ${JSON.stringify(data)}`);
  return encoder.encode(lines.join("\n") + "\n\n");
}

/** How long the browser waits before reconnecting a dropped stream. */
export function sseRetry(ms: number): Uint8Array {
  return encoder.encode(`retry: ${Math.round(ms)}\n\n`);
}

/** A comment line: keeps the connection (and proxies' idle timers) alive; browsers ignore it. */
export const SSE_HEARTBEAT = encoder.encode(": keep-alive\n\n");
