// /api/auth/* is next-auth's; a client's mistake there is still answered in the API's JSON error
// shape with a 4xx (server/http/foreign-routes.ts). These are answered before next-auth runs (it
// needs Next.js's request scope); what next-auth itself answers is checked against the running
// server (e2e/system/hostile-input.spec.ts).
import { describe, expect, it } from "vitest";

import { DELETE, GET, PATCH, POST, PUT } from "./route";

const context = (path: string) => ({ params: Promise.resolve({ nextauth: path.split("/") }) });
const call = (handler: typeof GET, method: string, path: string, init: RequestInit = {}) =>
  handler(new Request(`http://localhost:3000/api/auth/${path}`, { method, ...init }), context(path));

async function error(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("next-auth's endpoints", () => {
  it("answer a method they do not serve with a JSON 405 naming GET and POST", async () => {
    for (const [handler, method] of [
      [PUT, "PUT"],
      [PATCH, "PATCH"],
      [DELETE, "DELETE"],
    ] as const) {
      const res = await call(handler, method, "session");
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
      expect((await error(res)).code).toBe("METHOD_NOT_ALLOWED");
    }
  });

  it("refuse a JSON body that does not parse with 400, on every action", async () => {
    for (const path of ["session", "csrf", "signout", "callback/credentials", "signin/credentials"]) {
      const res = await call(POST, "POST", path, { headers: { "content-type": "application/json" }, body: "{" });
      expect(res.status, path).toBe(400);
      expect(await error(res)).toMatchObject({ code: "BAD_REQUEST", message: "The body is not valid JSON." });
    }
  });

  it("answer a path that is no action of theirs with a JSON 404, as any unknown path under /api", async () => {
    for (const path of ["nope", "no/such/thing", "session-x"]) {
      const res = await call(GET, "GET", path);
      expect(res.status, path).toBe(404);
      expect((await error(res)).code).toBe("NOT_FOUND");
    }
  });

  it("answer a GET of the credentials callback, which takes a POST, with a JSON 405", async () => {
    const res = await call(GET, "GET", "callback/credentials");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await error(res)).code).toBe("METHOD_NOT_ALLOWED");
  });
});
