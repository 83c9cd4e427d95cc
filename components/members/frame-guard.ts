/**
 * Whether the self-service page may show its actions where it is: at the top of the window, or in
 * a frame of the publication's own pages (its hosts, as the widgets' frame-ancestors allow).
 * Framed by another site, a page that cancels and pays must not be clickable (clickjacking): the
 * page then shows only a link that opens it on its own. The ancestors are the browser's
 * `location.ancestorOrigins` (Chromium, Safari), else the referrer; a frame that tells neither is
 * refused.
 */
export type FramedWindow = {
  self: unknown;
  top: unknown;
  location: { hostname: string; ancestorOrigins?: ArrayLike<string> | null };
  document: { referrer: string };
};

export function framedByAllowedSite(win: FramedWindow, hosts: readonly string[]): boolean {
  if (win.self === win.top) return true;
  const allowed = new Set([win.location.hostname.toLowerCase(), ...hosts.map((h) => h.toLowerCase())]);
  const listed = win.location.ancestorOrigins ? Array.from(win.location.ancestorOrigins) : [];
  const origins = listed.length ? listed : win.document.referrer ? [win.document.referrer] : [];
  if (origins.length === 0) return false;
  return origins.every((origin) => {
    try {
      return allowed.has(new URL(origin).hostname.toLowerCase());
    } catch {
      return false;
    }
  });
}
