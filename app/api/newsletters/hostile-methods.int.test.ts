/**
 * The newsletter routes asked with a method they do not serve, on PGlite and PostgreSQL: sign-up,
 * confirm, unsubscribe, open, click, the member API and bounce reports answer 405 in the JSON
 * error shape with their Allow list, OPTIONS answers 204 (the public sign-up's preflight never with
 * credentials or the server key's header), and a JSON route asked for another type answers 406,
 * still as JSON. None of it changes the newsletter tables.
 */
import { describe, expect, it } from "vitest";

import { call } from "@/server/testing/engagement";
import {
  expectRefused,
  forgetRateLimits,
  hostileSetup,
  snapshot,
  tokenPath,
  type Handler,
} from "@/server/testing/hostile-newsletters";

import { GET as MEMBER_PUT_GET } from "../member/newsletters/[slug]/route";
import { GET as MEMBER_LIST, POST as MEMBER_LIST_POST } from "../member/newsletters/route";
import * as bouncesRoute from "../v1/newsletters/bounces/route";
import * as clickRoute from "./click/[token]/route";
import * as confirmRoute from "./confirm/[token]/route";
import * as openRoute from "./open/[token]/route";
import * as subscribeRoute from "./subscribe/route";
import * as unsubscribeRoute from "./unsubscribe/[token]/route";

/** A method a route does not serve: the method, the route's handler for it, path, params, Allow. */
type MethodCase = [string, Handler, string, Record<string, string>, string];

describe("methods a route does not serve", () => {
  it("are 405 JSON with the Allow list, and change nothing", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const unsub = f.sign("unsubscribe", f.adaDaily.id);
    const cases: MethodCase[] = [
      ...(["GET", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, subscribeRoute[m], "/api/newsletters/subscribe", {}, "POST, OPTIONS"] as MethodCase,
      ),
      ...(["GET", "PUT", "PATCH", "DELETE"] as const).map(
        (m) =>
          [
            m,
            confirmRoute[m],
            tokenPath("confirm", f.sign("confirm", f.boWeekly.id)),
            { token: f.sign("confirm", f.boWeekly.id) },
            "POST, OPTIONS",
          ] as MethodCase,
      ),
      ...(["PUT", "PATCH", "DELETE"] as const).map(
        (m) =>
          [
            m,
            unsubscribeRoute[m],
            tokenPath("unsubscribe", unsub),
            { token: unsub },
            "GET, POST, HEAD, OPTIONS",
          ] as MethodCase,
      ),
      ...(["POST", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, openRoute[m], tokenPath("open", "x"), { token: "x" }, "GET, HEAD, OPTIONS"] as MethodCase,
      ),
      ...(["POST", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, clickRoute[m], tokenPath("click", "x"), { token: "x" }, "GET, HEAD, OPTIONS"] as MethodCase,
      ),
      ["POST", MEMBER_LIST_POST, "/api/member/newsletters", {}, "GET, HEAD, OPTIONS"],
      ["GET", MEMBER_PUT_GET, "/api/member/newsletters/daily", { slug: "daily" }, "PUT, OPTIONS"],
      ...(["GET", "PUT", "PATCH", "DELETE"] as const).map(
        (m) => [m, bouncesRoute[m], "/api/v1/newsletters/bounces", {}, "POST, OPTIONS"] as MethodCase,
      ),
    ];
    for (const [method, handler, path, params, allow] of cases) {
      const res = await call(handler, method, path, params, method === "GET" ? undefined : { subscribed: false }, {
        "X-QT-AUTH": f.memberSession,
      });
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      await expectRefused(res, 405, `${method} ${path}`);
    }

    // OPTIONS: the browser-facing sign-up answers a preflight (never with credentials under "*"),
    // the others their Allow list.
    const preflight = await subscribeRoute.OPTIONS(
      new Request("http://localhost/api/newsletters/subscribe", {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      }),
      { params: Promise.resolve({}) },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    expect(preflight.headers.get("access-control-allow-headers") ?? "").not.toMatch(/x-subauth/i);
    const options = await confirmRoute.OPTIONS(new Request("http://localhost/x", { method: "OPTIONS" }), {
      params: Promise.resolve({}),
    });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);

    // A JSON route asked for something else: 406, still as JSON.
    for (const [what, handler, path, accept] of [
      ["sign-up as HTML", subscribeRoute.POST, "/api/newsletters/subscribe", "text/html"],
      ["bounces as an image", bouncesRoute.POST, "/api/v1/newsletters/bounces", "image/png"],
      ["the member list with JSON ruled out", MEMBER_LIST, "/api/member/newsletters", "application/json;q=0"],
    ] as const) {
      forgetRateLimits();
      const res = await call(
        handler,
        what.startsWith("the member") ? "GET" : "POST",
        path,
        {},
        what.startsWith("the member") ? undefined : {},
        {
          accept,
          "X-QT-AUTH": f.memberSession,
        },
      );
      await expectRefused(res, 406, what);
    }
    expect(await snapshot(f.db)).toBe(before);
  });
});
