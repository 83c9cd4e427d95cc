/**
 * Where a reader goes after signing in or signing up on the member pages: only a path on this same
 * site (the OAuth authorize URL that sent them, usually). Without one, or with anything else (an
 * absolute URL, `//host`, a backslash trick or the member pages themselves: login, sign-up,
 * password), the reader's own account page, so a crafted `return_to` cannot turn the login page
 * into an open redirect.
 */
const DEFAULT_RETURN_TO = "/member/subscriptions";
const BASE = "http://masthead.invalid";
const MEMBER_PAGES = new Set(["/member/login", "/member/signup", "/member/forgot-password", "/member/reset-password"]);

export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return DEFAULT_RETURN_TO;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  if (url.origin !== BASE) return DEFAULT_RETURN_TO;
  if (MEMBER_PAGES.has(url.pathname)) return DEFAULT_RETURN_TO;
  return url.pathname + url.search + url.hash;
}
