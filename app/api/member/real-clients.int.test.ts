// Real clients of the member API over HTTP (server/testing/content-server.ts): @quintype/backend's
// Member.getCurrentMember (X-QT-AUTH → {member}, any error → null), and the login exchanges of
// quintype-ruby (reads the X-QT-AUTH response header and `member`) and quintype-api-php (reads the
// session-cookie cookie).
import * as backend from "@quintype/backend";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import * as me from "@/app/api/v1/members/me/route";
import { getDb } from "@/server/db";
import { startContentServer, type ContentServer } from "@/server/testing/content-server";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import * as login from "./login/route";
import * as signup from "./route";

// The package's typings (server/testing/quintype-backend.d.ts) leave Member out.
const { Client } = backend;
const { Member } = backend as unknown as {
  Member: { getCurrentMember(client: backend.Client, token: string): Promise<Record<string, unknown> | null> };
};

let server: ContentServer;

beforeAll(async () => {
  server = await startContentServer([
    { pattern: /^\/api\/v1\/members\/me$/, module: me },
    { pattern: /^\/api\/member\/login$/, module: login },
    { pattern: /^\/api\/member$/, module: signup },
  ]);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

describe("real clients of the member API", () => {
  it("sign-up and login over HTTP give a token that @quintype/backend's getCurrentMember accepts; bogus tokens give null", async () => {
    const publisher = await createTestPublisher(await getDb());
    const email = `real.${Date.now()}@example.com`;
    const created = await fetch(`${server.baseUrl}/api/member`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Real Client",
        username: `real${Date.now()}`,
        email,
        password: "correct horse battery",
      }),
    });
    expect(created.status).toBe(201);

    // quintype-ruby: POST member/login, token from the X-QT-AUTH response header, data under `member`.
    const res = await fetch(`${server.baseUrl}/api/member/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "correct horse battery" }),
    });
    expect(res.status).toBe(200);
    const token = res.headers.get("x-qt-auth")!;
    expect(token).toBeTruthy();
    expect(((await res.json()) as { member: { email: string } }).member.email).toBe(email);
    // quintype-api-php reads the session-cookie cookie of the login response.
    expect(res.headers.get("set-cookie")).toContain(`session-cookie=${token}`);

    const client = new Client(server.baseUrl, true);
    const member = await Member.getCurrentMember(client, token);
    expect(member).not.toBeNull();
    expect(member!.email).toBe(email);
    expect(member!["publisher-id"]).toBe(publisher.id);

    expect(await Member.getCurrentMember(client, "bogus-token")).toBeNull();
    expect(await Member.getCurrentMember(client, "")).toBeNull();
    // The raw call behind it: a bogus X-QT-AUTH is a 401 (the acceptance runner's member-anon check).
    const anon = await fetch(`${server.baseUrl}/api/v1/members/me`, {
      headers: { "X-QT-AUTH": "bogus-token", accept: "application/json" },
    });
    expect(anon.status).toBe(401);
  });
});
