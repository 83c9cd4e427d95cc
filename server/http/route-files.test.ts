/**
 * Conventions every REST route file keeps (docs/architecture.md, "Adding a route"): it binds HTTP
 * to a service through apiRoute/routes, and whom it serves is declared there, never worked out by
 * hand. Read as text, so a new route file that strays fails here before review.
 */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Route files that are not REST endpoints of ours, each with its reason. */
const FRAMEWORK_ROUTES: Record<string, string> = {
  "app/api/auth/[...nextauth]/route.ts": "next-auth's own endpoints (dashboard sign-in)",
  "app/api/trpc/[trpc]/route.ts": "the dashboard's tRPC handler (procedures authenticate in server/trpc)",
  "app/api/inngest/route.ts": "Inngest's serve handler, signed by Inngest (404 JSON when Inngest is off)",
  "app/api/bench/empty/route.ts": "the benchmark's baseline: an empty handler, on purpose",
};

/** What only apiRoute's authentication may do. */
const BY_HAND: [RegExp, string][] = [
  [/headers\.get\(\s*["']host["']\s*\)/i, 'reads the Host header (use auth: "publisher")'],
  [
    /headers\.get\(\s*["']x-qt-auth["']|memberTokenFromRequest|authenticateMember|sessionTokenFromRequest/i,
    'reads a member token (use auth: "member")',
  ],
  [/getAdminSession|getServerSession|requireAdminActor|next-auth/, 'reads a dashboard session (use auth: "admin")'],
  [
    /x-subauth|authenticateServerKey|authenticateClient|verifyPublisherJwt/i,
    "checks a key or JWT (use the server/client/publisherJwt schemes)",
  ],
  [/resolvePublisher|resolveContentContext/, 'finds the publisher (use auth: "publisher")'],
  [/from\s+["']next\/headers["']/, "reads request headers or cookies through next/headers"],
  [/\bgetDb\(/, "opens the database itself (the handler context holds db)"],
];

function routeFiles(dir = path.join(ROOT, "app")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(ROOT, full)] : [];
  });
}

describe("route files", () => {
  const files = routeFiles();

  it("are found", () => {
    expect(files.length).toBeGreaterThan(40);
  });

  for (const file of files) {
    it(file, () => {
      // Comments may name what the route does (X-QT-AUTH…); only the code counts.
      const source = fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      if (FRAMEWORK_ROUTES[file]) return;
      // Every method goes through routes() (405 for the others), every handler through apiRoute.
      expect(source, `${file} must export its handlers with routes(…)`).toMatch(/\}\s*=\s*routes\(/);
      expect(source, `${file} must build handlers with apiRoute or a factory of server/http`).toMatch(
        /apiRoute\(|from "@\/server\/http\/([a-z-]+-routes|static-asset)"/,
      );
      for (const [pattern, what] of BY_HAND) {
        expect(pattern.test(source), `${file} ${what}`).toBe(false);
      }
      // A public route serves nobody in particular: it must not be for a member or the dashboard.
      if (/auth:\s*"public"/.test(source)) expect(source).not.toMatch(/member|admin|session/i);
    });
  }

  it("the framework exceptions still exist (remove them from the list when they go)", () => {
    for (const file of Object.keys(FRAMEWORK_ROUTES)) expect(files).toContain(file);
  });
});
