// POST /api/trpc/* over HTTP: the dashboard's inputs meet the same input guard as the REST API's
// bodies (server/validation.ts), so hostile text or nesting is a 400, never a 500.
import superjson from "superjson";
import { describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { createTestStaff } from "@/server/testing/staff";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST } = await import("./route");

async function call(path: string, input: unknown) {
  const res = await POST(
    new Request(`http://localhost/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // Plain JSON is superjson's wire form for plain values ({"json": …}); built by hand so a
      // deeply nested input is not limited by the test's own serialiser.
      body: typeof input === "string" ? input : JSON.stringify(superjson.serialize(input)),
    }),
  );
  const text = await res.text();
  const body = JSON.parse(text) as {
    error?: { json?: { data?: { appError?: { code: string; details?: { field: string; issue: string }[] } } } };
  };
  return {
    status: res.status,
    appError: body.error?.json?.data?.appError,
    text,
    requestId: res.headers.get("x-request-id"),
  };
}

describe("tRPC input guard", () => {
  it("refuses lone surrogates and NUL characters in any input with 400, naming the field", async () => {
    const db = await getDb();
    session.current = (await createTestStaff(db, { roles: ["OWNER"] })).session;
    const cases: [string, unknown, string][] = [
      ["stories.create", { headline: "Budget \ud800 day" }, "headline"],
      ["organise.tags.create", { name: "Tag\u0000" }, "name"],
      ["organise.entities.create", { name: "\udc00", type: "person" }, "name"],
      [
        "webhooks.create",
        { kind: "CONTENT", url: "https://hooks.example.com/x", events: ["story-publish"], description: "\ud83d" },
        "description",
      ],
    ];
    for (const [path, input, field] of cases) {
      const { status, appError, text, requestId } = await call(path, input);
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect({ path, status }).toEqual({ path, status: 400 });
      expect(appError?.details?.[0]?.field).toBe(field);
      // Never a stack trace, whatever the environment.
      expect(text).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
      expect(text).not.toContain('"stack"');
    }
    expect(await db.story.count()).toBe(0);
    expect(await db.tag.count()).toBe(0);
  });

  it("refuses metadata nested thousands of levels deep with 400, not a stack overflow", async () => {
    const db = await getDb();
    session.current = (await createTestStaff(db, { roles: ["EDITOR"] })).session;
    const levels = 5000;
    const metadata = `${'{"nested":'.repeat(levels)}"bottom"${"}".repeat(levels)}`;
    const { status, appError } = await call(
      "organise.entities.create",
      `{"json":{"name":"Deep","type":"person","metadata":${metadata}}}`,
    );
    expect(status).toBe(400);
    expect(appError?.details?.[0]?.issue).toBe("nests deeper than 64 levels");
    expect(await db.entity.count()).toBe(0);
  });
});
