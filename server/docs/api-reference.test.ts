import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";
import { z } from "zod";

import { apiRoute } from "../http/route";
import { collectEndpoints, renderMarkdown, routePath } from "./api-reference";

describe("API reference generation", () => {
  it("derives paths from route files, dropping route groups", () => {
    expect(routePath("/app", "/app/api/v1/stories/[story-id]/route.ts")).toBe("/api/v1/stories/{story-id}");
    expect(routePath("/app", "/app/(site)/api/v1/entities/[id]/[...subentity]/route.ts")).toBe(
      "/api/v1/entities/{id}/{subentity+}",
    );
  });

  it("documents each method from the zod schemas that validate it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mh-ref-"));
    fs.mkdirSync(path.join(dir, "api/v1/things"), { recursive: true });
    const file = path.join(dir, "api/v1/things/route.ts");
    fs.writeFileSync(file, "export const GET = apiRoute(/* … */);");
    const GET = apiRoute(
      {
        auth: "client+user",
        summary: "List things.",
        query: z.object({ limit: z.coerce.number().int().max(100).default(20), q: z.string().optional() }),
        rateLimit: { name: "things", limit: 60, windowSeconds: 60, by: "key" },
      },
      async () => Response.json([]),
    );
    const docs = await collectEndpoints(dir, async () => ({ GET, POST: async () => new Response() }));
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      method: "GET",
      path: "/api/v1/things",
      summary: "List things.",
      rateLimit: "60 per 60 s per key",
    });
    expect(docs[0]!.auth).toMatch(/masthead_jwt/);
    expect(docs[0]!.query).toMatchObject({
      type: "object",
      properties: { limit: { default: 20, maximum: 100 }, q: { type: "string" } },
    });
    expect(renderMarkdown(docs)).toContain("## GET /api/v1/things");
  });

  it("names the roles of a dashboard route, and OWNER once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mh-ref-"));
    for (const name of ["plans", "owners"]) {
      fs.mkdirSync(path.join(dir, `api/admin/${name}`), { recursive: true });
      fs.writeFileSync(path.join(dir, `api/admin/${name}/route.ts`), "export const GET = apiRoute(/* … */);");
    }
    const route = (roles: ("REVENUE" | "EDITOR" | "OWNER")[]) =>
      apiRoute({ auth: "admin", roles }, async () => Response.json([]));
    const docs = await collectEndpoints(dir, async (file) => ({
      GET: file.includes("owners") ? route(["OWNER"]) : route(["REVENUE", "EDITOR"]),
    }));
    expect(Object.fromEntries(docs.map((doc) => [doc.path, doc.auth]))).toEqual({
      "/api/admin/owners": "dashboard session (next-auth cookie), role OWNER",
      "/api/admin/plans": "dashboard session (next-auth cookie), role REVENUE or EDITOR (or OWNER)",
    });
  });
});
