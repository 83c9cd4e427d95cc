// The caller's socket address, carried from scripts/serve.mjs to the routes. Plain JavaScript, so
// that serve.mjs (run by Node as it is) and the TypeScript routes share it.

/**
 * The header carrying the address of the socket a request came in on: the peer, which Next.js's
 * route handlers cannot see. scripts/serve.mjs sets it on every request, over whatever a client
 * sent, and says so on globalThis (`mastheadSetsPeerAddress`); the Vercel proxy
 * (server/http/serverless-proxy.ts) removes it. A route reads it only where serve.mjs set it (clientIp in
 * server/http/route.ts, clientIpFromHeaders in server/auth/credentials.ts), so a client can never
 * choose it.
 */
export const PEER_ADDRESS_HEADER = "x-masthead-peer";

/**
 * Put the socket's address in `headers` (a node:http request's) as PEER_ADDRESS_HEADER, replacing
 * any a client sent; without an address (the socket already gone) the header is removed.
 * @param {Record<string, string | string[] | undefined>} headers
 * @param {string | undefined} remoteAddress
 */
export function setPeerAddress(headers, remoteAddress) {
  if (remoteAddress) headers[PEER_ADDRESS_HEADER] = remoteAddress;
  else delete headers[PEER_ADDRESS_HEADER];
}

/**
 * The caller's socket address as scripts/serve.mjs recorded it (PEER_ADDRESS_HEADER); undefined
 * where serve.mjs does not run this process (Vercel, handlers called directly), since the header
 * there would be a client's own.
 * @param {string | string[] | null | undefined} header
 * @returns {string | undefined}
 */
export function servedPeerAddress(header) {
  const served = /** @type {{ mastheadSetsPeerAddress?: boolean }} */ (globalThis).mastheadSetsPeerAddress === true;
  return served && typeof header === "string" ? header.trim() || undefined : undefined;
}
