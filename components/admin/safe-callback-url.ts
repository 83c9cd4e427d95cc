/**
 * Where to go after signing in. Only dashboard paths on this site are accepted, so a crafted
 * link (`?callbackUrl=https://evil.example`) cannot turn the sign-in page into an open redirect.
 */
const DEFAULT_AFTER_SIGN_IN = "/admin";

export function safeCallbackUrl(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return DEFAULT_AFTER_SIGN_IN;
  let url: URL;
  try {
    url = new URL(value, "http://masthead.invalid");
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (url.origin !== "http://masthead.invalid") return DEFAULT_AFTER_SIGN_IN;
  const isDashboard = url.pathname === "/admin" || url.pathname.startsWith("/admin/");
  if (!isDashboard || url.pathname.startsWith("/admin/sign-in")) return DEFAULT_AFTER_SIGN_IN;
  return url.pathname + url.search + url.hash;
}
