/**
 * Which Node.js versions Masthead runs on: package.json `engines.node` ("^20.19 || ^22.12 || >=24",
 * the versions Prisma 7 and Next.js 16 support), compared with the running one by `semver`. Pure;
 * scripts/lib/require-supported-node.ts applies it before anything else loads.
 */
import semver from "semver";

/** "^20.19 || ^22.12 || >=24" → "20.19 or a later 20.x, 22.12 or a later 22.x, or 24 and newer". */
export function describeRange(range: string): string {
  const parts = range.split("||").map((part) => {
    const text = part.trim();
    const caret = /^\^(\d+)(\.\d+)?(\.\d+)?$/.exec(text);
    if (caret) return `${caret[1]}${caret[2] ?? ""}${caret[3] ?? ""} or a later ${caret[1]}.x`;
    const atLeast = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(text);
    if (atLeast) return `${atLeast[1]} and newer`;
    return text;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")}, or ${parts.at(-1)}` : (parts[0] ?? range);
}

/**
 * The one line to stop with when `current` is outside `range`, or null when it may run. A range or
 * version that cannot be read refuses nothing.
 */
export function unsupportedNodeMessage(current: string, range: string): string | null {
  const version = semver.coerce(current, { includePrerelease: true });
  if (!version || !semver.validRange(range)) return null;
  if (semver.satisfies(version, range, { includePrerelease: true })) return null;
  return (
    `Masthead needs Node.js ${describeRange(range)} (this is ${current.replace(/^v/, "")}): ` +
    "install a current LTS release from https://nodejs.org/ or with your version manager (e.g. `nvm install --lts`), then run the command again."
  );
}
