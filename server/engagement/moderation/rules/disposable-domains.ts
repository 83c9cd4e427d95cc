/**
 * Disposable e-mail domains, from the npm package `disposable-email-domains` (MIT,
 * github.com/ivolo/disposable-email-domains; version pinned in package.json): about 120,000
 * domains, read into a Set the first time an account with `hold_disposable_emails` moderates a
 * comment, then kept for the life of the process.
 */
import "server-only";

let loaded: Promise<ReadonlySet<string>> | null = null;

export const NO_DOMAINS: ReadonlySet<string> = new Set();

/** The list as a Set of lower-case domains. */
export function disposableDomains(): Promise<ReadonlySet<string>> {
  loaded ??= import("disposable-email-domains/index.json", { with: { type: "json" } }).then(
    (module: { default: string[] }) => new Set(module.default.map((domain) => domain.toLowerCase())),
  );
  return loaded;
}
