/**
 * What the open pixel and the redirected links answer with, beside ./tracking.ts: the GIF and the
 * routes' rate limits (per IP; roomy, since mail providers' image proxies and link scanners fetch
 * for many readers from few addresses, and a token cannot be guessed anyway).
 */
/** A 1×1 transparent GIF (42 bytes). */
export const TRANSPARENT_GIF: Uint8Array<ArrayBuffer> = new Uint8Array(
  Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"),
);

export const TRACKING_LIMITS = {
  open: { name: "newsletters.open", limit: 1200, windowSeconds: 60, by: "ip" },
  click: { name: "newsletters.click", limit: 600, windowSeconds: 60, by: "ip" },
} as const;
