/**
 * Who may call AMP's paywall endpoints (docs/subscriptions.md, "Who calls the AMP endpoints"):
 * the server key in X-SUBAUTH, as the publisher's first-party endpoint forwards them (spec §5); a
 * call without it, or with a wrong key, is 401 and counts nothing, unless the owner allowed
 * direct calls (Settings, audited, off by default). The web's check and pingback are not changed.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createAccessFixture, forward, send, views } from "@/server/testing/access-calls";
import { setMeter } from "@/server/testing/access-fixtures";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import { GET as ACCESS } from "./[storyId]/access/route";
import { GET as AMP_ACCESS } from "./[storyId]/amp-access/route";
import { POST as AMP_PINGBACK } from "./[storyId]/amp-pingback/route";
import { POST as PINGBACK } from "./[storyId]/pingback/route";

const setup = async () => createAccessFixture(await getDb());
const METER = JSON.stringify({ granted: true, grantReason: "METERING", data: { numberRemaining: 1 } });
const ping = (headers: Record<string, string> = {}) => ({
  method: "POST",
  body: METER,
  headers: { "content-type": "text/plain", ...headers },
});

async function errorOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("AMP's paywall calls need the server key", () => {
  it("answers 401 JSON without X-SUBAUTH or with a wrong key, and counts nothing", async () => {
    const { db, account, key, serverKey, story } = await setup();
    const other = await setup();
    await setMeter(db, account.id, { freeStories: 3 });
    const s = await story("subscription");
    const query = { key, readerId: "amp-1" };
    const refusals: [string, Record<string, string>, RegExp][] = [
      ["no X-SUBAUTH", {}, /X-SUBAUTH header is missing/],
      ["an empty X-SUBAUTH", { "x-subauth": "" }, /X-SUBAUTH header is missing/],
      ["a made-up key", { "x-subauth": "mh_sk_not_a_key_at_all" }, /X-SUBAUTH header is not a valid key/],
      // (Its last letter made another one: "x" when it is not already "x", else "y".)
      [
        "the server key with a letter changed",
        { "x-subauth": `${serverKey.slice(0, -1)}${serverKey.endsWith("x") ? "y" : "x"}` },
        /not a valid key/,
      ],
      ["the client key as X-SUBAUTH", { "x-subauth": key }, /not a valid key/],
      ["another account's server key", { "x-subauth": other.serverKey }, /not a client key of the X-SUBAUTH/],
    ];
    for (const [what, headers, message] of refusals) {
      const check = await send(AMP_ACCESS, s.id, query, { headers });
      expect(check.status, what).toBe(401);
      const error = await errorOf(check);
      expect(error.code, what).toBe("UNAUTHORIZED");
      expect(error.message, what).toMatch(message);
      const counted = await send(AMP_PINGBACK, s.id, query, ping(headers));
      expect(counted.status, what).toBe(401);
      expect((await errorOf(counted)).code).toBe("UNAUTHORIZED");
    }
    // A wrong client key beside the right server key is refused too.
    const wrongKey = await send(
      AMP_ACCESS,
      s.id,
      { ...query, key: "mh_pk_nope" },
      { headers: { "x-subauth": serverKey } },
    );
    expect(wrongKey.status).toBe(401);
    expect(await views(db, account.id)).toBe(0);

    // Forwarded by the first-party endpoint (the right key): answered, and the pingback counts.
    const granted = await forward(AMP_ACCESS, s.id, query);
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ granted: true, grantReason: "METERING" });
    expect((await forward(AMP_PINGBACK, s.id, query, ping())).status).toBe(200);
    expect(await views(db, account.id)).toBe(1);
    // The server key alone (no `key`) is enough, as spec §5's server API.
    expect((await send(AMP_ACCESS, s.id, { readerId: "amp-1" }, { headers: { "x-subauth": serverKey } })).status).toBe(
      200,
    );
  });

  it("leaves the web's check and pingback on the client key", async () => {
    const { key, story } = await setup();
    const s = await story("public");
    expect((await send(ACCESS, s.id, { key, readerId: "web-1" })).status).toBe(200);
    expect((await send(PINGBACK, s.id, { key, readerId: "web-1" }, ping())).status).toBe(200);
  });
});

describe("the owner's setting 'Allow direct AMP calls'", () => {
  it("is off by default; on, the client key alone is enough; each change is audited; owners only", async () => {
    const { db, account, key, story } = await setup();
    const owner = await createTestStaff(db, { account: account.id, roles: ["OWNER"] });
    const revenue = await createTestStaff(db, { account: account.id, roles: ["REVENUE"] });
    const s = await story("public");
    const direct = () => send(AMP_ACCESS, s.id, { key, readerId: "amp-1" });

    expect(await owner.caller.settings.ampCalls()).toEqual({ ampDirectCalls: false });
    expect((await direct()).status).toBe(401);
    expect(await trpcCodeOf(revenue.caller.settings.setAmpCalls({ ampDirectCalls: true }))).toBe("FORBIDDEN");
    expect(
      await trpcCodeOf(
        owner.caller.settings.setAmpCalls({ ampDirectCalls: "yes" } as unknown as { ampDirectCalls: boolean }),
      ),
    ).toBe("BAD_REQUEST");

    expect(await owner.caller.settings.setAmpCalls({ ampDirectCalls: true })).toEqual({ ampDirectCalls: true });
    expect((await direct()).status).toBe(200);
    expect((await send(AMP_PINGBACK, s.id, { key, readerId: "amp-1" }, ping())).status).toBe(200);
    // A wrong key is still refused, and so is a wrong X-SUBAUTH (a header sent is checked).
    expect((await send(AMP_ACCESS, s.id, { key: "mh_pk_nope", readerId: "amp-1" })).status).toBe(401);
    expect(
      (await send(AMP_ACCESS, s.id, { key, readerId: "amp-1" }, { headers: { "x-subauth": "nope" } })).status,
    ).toBe(401);
    // Saving the same value again writes nothing.
    await owner.caller.settings.setAmpCalls({ ampDirectCalls: true });
    await owner.caller.settings.setAmpCalls({ ampDirectCalls: false });
    expect((await direct()).status).toBe(401);
    const audits = await db.auditLog.findMany({
      where: { accountId: account.id, action: "account.amp-calls" },
      select: { metadata: true },
    });
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => a.metadata)).toEqual(
      expect.arrayContaining([{ ampDirectCalls: true }, { ampDirectCalls: false }]),
    );
  });
});
