/**
 * The API reference, generated from the route files themselves: every method a route file serves
 * through apiRoute, with its authentication and the JSON Schema of the zod schemas that validate
 * its path, query and body. `npm run docs:api` writes docs/api-reference.{md,json}; a test fails
 * when they are out of date, so the reference cannot drift from what the API accepts.
 */
import fs from "node:fs";
import path from "node:path";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";

import type { AuthScheme, RouteHandler } from "../http/route";

export type EndpointDoc = {
  method: string;
  path: string;
  auth: string;
  summary: string;
  rateLimit?: string;
  cors: boolean;
  params?: unknown;
  query?: unknown;
  body?: unknown;
  bodyTypes: string[];
};

/** Who may call an admin route: its roles, and OWNER, who always may (named once). */
function rolesLabel(roles: readonly string[]): string {
  const others = roles.filter((role) => role !== "OWNER");
  return others.length ? `role ${others.join(" or ")} (or OWNER)` : "role OWNER";
}

const AUTH_LABEL: Record<AuthScheme, string> = {
  public: "none",
  publisher: "none (the publisher is the one whose domain the request is on)",
  member: "signed-in member: X-QT-AUTH header, or the qt-auth / session-cookie cookie (401 without)",
  "member?": "optional signed-in member: X-QT-AUTH header, or the qt-auth / session-cookie cookie",
  admin: "dashboard session (next-auth cookie)",
  server: "X-SUBAUTH header (server key)",
  client: "key query parameter (client key)",
  "client+user": "key query parameter + masthead_jwt user token (required)",
  "client+optionalUser": "key query parameter + masthead_jwt user token (optional)",
  serverOrClient: "X-SUBAUTH server key, or the key query parameter (client key)",
  "serverOrClient+optionalUser":
    "X-SUBAUTH server key, or the key query parameter (client key); + masthead_jwt / accesstype_jwt / svc_jwt user token (optional)",
  amp: "X-SUBAUTH server key (+ key query parameter of the same account, optional; without X-SUBAUTH: the client key alone, only when the account allows direct AMP calls) + masthead_jwt / accesstype_jwt / svc_jwt user token (optional)",
  publisherJwt: "account in the path + publisher-signed jwt (optional)",
  "publisherJwt+user": "account in the path + publisher-signed jwt (required)",
  oauth: "OAuth access token: Authorization: Bearer <token> or the access_token query parameter (401 without)",
  operator: "Authorization: Bearer <METRICS_TOKEN> (the route is not served while METRICS_TOKEN is unset)",
};

/** app/api/v1/stories/[story-id]/route.ts → /api/v1/stories/{story-id}; route groups are dropped. */
export function routePath(appDir: string, file: string): string {
  const rel = path.relative(appDir, path.dirname(file)).split(path.sep);
  const parts = rel
    .filter((p) => p && !/^\(.*\)$/.test(p))
    .map((p) => p.replace(/^\[\.\.\.(.+)\]$/, "{$1+}").replace(/^\[(.+)\]$/, "{$1}"));
  return "/" + parts.join("/");
}

function findRouteFiles(appDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts" && /\}\s*=\s*routes\(|apiRoute\(/.test(fs.readFileSync(full, "utf8")))
        out.push(full);
    }
  };
  walk(appDir);
  return out.sort();
}

const schema = (s: z.ZodType | undefined) =>
  s ? z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) : undefined;

export async function collectEndpoints(
  appDir: string,
  load: (file: string) => Promise<Record<string, unknown>>,
): Promise<EndpointDoc[]> {
  const docs: EndpointDoc[] = [];
  for (const file of findRouteFiles(appDir)) {
    const mod = await load(file);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const handler = ownValue(mod, method) as Partial<RouteHandler> | undefined;
      const meta = handler?.meta;
      if (!meta) continue;
      docs.push({
        method,
        path: routePath(appDir, file),
        auth: meta.auth === "admin" ? `${AUTH_LABEL.admin}, ${rolesLabel(meta.roles ?? [])}` : AUTH_LABEL[meta.auth],
        summary: meta.summary ?? "",
        ...(meta.rateLimit
          ? {
              rateLimit: [meta.rateLimit]
                .flat()
                .map((rule) => `${rule.limit} per ${rule.windowSeconds} s per ${rule.by}`)
                .join("; "),
            }
          : {}),
        cors: Boolean(meta.cors),
        params: schema(meta.params),
        query: schema(meta.query),
        body: schema(meta.body),
        bodyTypes: meta.body ? (meta.bodyTypes ?? ["json"]) : [],
      });
    }
  }
  return docs.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

export function renderMarkdown(docs: EndpointDoc[]): string {
  const lines = [
    "# API reference",
    "",
    "Generated by `npm run docs:api` from the zod schemas that validate each request (do not edit by hand).",
    "Conventions shared by every endpoint (errors, authentication, rate limits, CORS): [api-conventions.md](api-conventions.md).",
    "",
  ];
  for (const d of docs) {
    lines.push(`## ${d.method} ${d.path}`, "");
    if (d.summary) lines.push(d.summary, "");
    lines.push(`- Authentication: ${d.auth}`);
    if (d.rateLimit) lines.push(`- Rate limit: ${d.rateLimit}`);
    if (d.cors) lines.push("- Browser-facing (CORS)");
    if (d.bodyTypes.length) lines.push(`- Body: ${d.bodyTypes.join(", ")}`);
    lines.push("");
    for (const [label, s] of [
      ["Path parameters", d.params],
      ["Query parameters", d.query],
      ["Body", d.body],
    ] as const) {
      if (s) lines.push(`${label}:`, "", "```json", JSON.stringify(s, null, 2), "```", "");
    }
  }
  return lines.join("\n");
}
