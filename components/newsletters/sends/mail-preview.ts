/**
 * The send confirmation's preview of a mail (story-newsletter-panel.tsx) is shown in an iframe
 * sandboxed without allow-same-origin (an opaque origin: nothing in it reaches the dashboard's
 * cookies or DOM). Scripts are allowed by the sandbox only so that tools working through the
 * browser's script engine (screen readers' extensions, axe) can read the frame; the mail itself
 * runs none: its document opens with a Content-Security-Policy that forbids every script, and
 * the dashboard's own policy, which a srcdoc document inherits, applies as well.
 */
const NO_SCRIPTS = `<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'">`;

/** `html` with the no-scripts policy as the first thing its document reads. Pure. */
export function previewDocument(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + NO_SCRIPTS + html.slice(head.index + head[0].length);
  return NO_SCRIPTS + html;
}
