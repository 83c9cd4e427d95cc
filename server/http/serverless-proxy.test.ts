import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";

import { serverlessProxy } from "./serverless-proxy";

describe("serverlessProxy (the edge checks on Vercel)", () => {
  it("answers a method no route serves with 405 in the JSON error shape", async () => {
    const response = serverlessProxy(
      new NextRequest("https://masthead.example/api/v1/stories", { method: "PROPFIND" }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("GET");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });
  });

  it("answers an undecodable path with 400, anywhere", async () => {
    for (const target of [
      "https://masthead.example/api/v1/stories/%E0%A4%A",
      "https://masthead.example/images/%ED%A0%80",
    ]) {
      const response = serverlessProxy(new NextRequest(target, { headers: { "x-request-id": "report-42" } }));
      expect(response.status, target).toBe(400);
      expect(response.headers.get("x-request-id")).toBe("report-42");
      expect(await response.json()).toMatchObject({
        error: { code: "BAD_REQUEST", details: [{ field: "path", issue: "malformed percent-encoding" }] },
      });
    }
  });

  it("lets the rest through with its request id, the client's when it is a sane one", () => {
    const kept = serverlessProxy(
      new NextRequest("https://masthead.example/api/v1/stories", { headers: { "x-request-id": "abc-12345" } }),
    );
    expect(kept.headers.get("x-middleware-next")).toBe("1");
    expect(kept.headers.get("x-request-id")).toBe("abc-12345");
    const replaced = serverlessProxy(
      new NextRequest("https://masthead.example/api/v1/stories", { headers: { "x-request-id": "bad id\twith tabs" } }),
    );
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("removes a client's peer address header (nothing sets it here), and keeps the client's other headers", () => {
    const response = serverlessProxy(
      new NextRequest("https://masthead.example/api/newsletters/subscribe", {
        headers: { "x-masthead-peer": "192.0.2.1", accept: "application/json" },
      }),
    );
    // The request Next.js hands the route has exactly the headers named here.
    const kept = response.headers.get("x-middleware-override-headers")?.split(",") ?? [];
    expect(kept).toContain("accept");
    expect(kept).toContain("x-request-id");
    expect(kept).not.toContain("x-masthead-peer");
    expect(response.headers.get("x-middleware-request-x-masthead-peer")).toBeNull();
  });
});
