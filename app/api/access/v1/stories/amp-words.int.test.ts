/**
 * The reader's words with AMP's grant (docs/subscriptions.md, "AMP"): asked with `locale` (the AMP
 * page's language, written in its authorization URL), amp-access adds {locale, dir, messages:
 * {notice, subscribe, signIn}} to the grant's data, in the offered locale it names, else the
 * account's default, with the account's overrides; without it the grant is the spec's object as
 * before. The pingback takes the grant back whole, words and all. Bad input 400, never 500.
 * PGlite and PostgreSQL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { translator } from "@/i18n/translate";
import { getDb } from "@/server/db";
import { saveOverride } from "@/server/i18n/overrides";
import { createAccessFixture, forward, send, views } from "@/server/testing/access-calls";
import { setMeter } from "@/server/testing/access-fixtures";

import { GET as ACCESS } from "./[storyId]/access/route";
import { GET as AMP_ACCESS } from "./[storyId]/amp-access/route";
import { POST as AMP_PINGBACK } from "./[storyId]/amp-pingback/route";

type Grant = {
  granted: boolean;
  grantReason: string | null;
  data: Record<string, unknown> & { messages?: Record<string, string>; locale?: string; dir?: string };
};

async function setup() {
  const fixture = await createAccessFixture(await getDb());
  const check = async (storyId: string, query: Record<string, string>) => {
    const res = await forward(AMP_ACCESS, storyId, { key: fixture.key, readerId: "amp-reader", ...query });
    expect(res.status, JSON.stringify(query)).toBe(200);
    return (await res.json()) as Grant;
  };
  return { ...fixture, check };
}

describe("the reader's words with AMP's grant", () => {
  it("says what the grant means in the page's locale: free stories left, the last one, subscribe", async () => {
    const { db, account, story, check, key } = await setup();
    await setMeter(db, account.id, { freeStories: 2 });
    const [a, b, c] = [await story("subscription"), await story("subscription"), await story("subscription")];
    const hi = translator("paywall", "hi");

    const first = await check(a.id, { locale: "hi-IN" });
    expect(first).toEqual({
      granted: true,
      grantReason: "METERING",
      data: {
        numberRemaining: 1,
        isLoggedIn: false,
        isLast: false,
        wall: null,
        locale: "hi",
        dir: "ltr",
        messages: {
          notice: hi("access.freeStoriesLeft", { n: 1 }),
          subscribe: hi("access.subscribe"),
          signIn: hi("access.signIn"),
        },
      },
    });
    // Without `locale`, the spec's grant (with Masthead's `wall`).
    expect(await check(a.id, {})).toEqual({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 1, isLoggedIn: false, isLast: false, wall: null },
    });

    // The pingback takes the grant back whole, words included, and counts.
    const counted = await forward(
      AMP_PINGBACK,
      a.id,
      { key, readerId: "amp-reader", locale: "hi" },
      { method: "POST", body: JSON.stringify(first), headers: { "content-type": "text/plain" } },
    );
    expect(counted.status).toBe(200);
    expect(await views(db, account.id)).toBe(1);

    const ar = translator("paywall", "ar");
    const last = await check(b.id, { locale: "ar" });
    expect([last.data.dir, last.data.messages?.notice]).toEqual(["rtl", ar("access.lastFreeStory")]);
    await forward(
      AMP_PINGBACK,
      b.id,
      { key, readerId: "amp-reader" },
      { method: "POST", body: JSON.stringify(last), headers: { "content-type": "text/plain" } },
    );
    const denied = await check(c.id, { locale: "fr" });
    expect(denied.granted).toBe(false);
    expect(denied.data.messages?.notice).toBe(translator("paywall", "fr")("access.subscribeToRead"));

    const login = await story("login");
    expect((await check(login.id, { locale: "de" })).data.messages?.notice).toBe(
      translator("paywall", "de")("access.signInToRead"),
    );
    const open = await story("public");
    expect((await check(open.id, { locale: "ta" })).data.messages?.notice).toBe(
      translator("paywall", "ta")("access.free"),
    );
  });

  it("keeps to the offered locales (else the default), with the account's own words at once", async () => {
    const { db, account, story, check } = await setup();
    const s = await story("subscription");
    expect((await check(s.id, { locale: "ja" })).data.locale).toBe("en");
    expect((await check(s.id, { locale: "" })).data.locale).toBe("en");
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "ta-IN", languageIsoCode: "ta", localesOffered: ["ta", "en"] },
    });
    expect((await check(s.id, { locale: "hi" })).data.locale).toBe("ta");
    expect((await check(s.id, { locale: "en-GB" })).data.locale).toBe("en");
    await saveOverride(
      db,
      account.id,
      { surface: "paywall", locale: "ta", key: "access.subscribe" },
      "இப்போதே சேருங்கள்",
      null,
    );
    const own = await check(s.id, { locale: "ta" });
    expect(own.data.messages?.subscribe).toBe("இப்போதே சேருங்கள்");
    expect(own.data.messages?.notice).toBe(translator("paywall", "ta")("access.subscribeToRead"));
  });

  it("fits the pingback with the longest words an owner may write", async () => {
    const { db, account, story, check, key } = await setup();
    await setMeter(db, account.id, { freeStories: 3 });
    const s = await story("subscription");
    for (const k of ["access.freeStoriesLeft", "access.subscribe", "access.signIn"])
      await saveOverride(db, account.id, { surface: "paywall", locale: "ta", key: k }, "கௌ".repeat(1000), null);
    const grant = await check(s.id, { locale: "ta" });
    expect(grant.data.messages?.signIn).toHaveLength(2000);
    const body = JSON.stringify(grant);
    expect(Buffer.byteLength(body)).toBeGreaterThan(17_000);
    const res = await forward(
      AMP_PINGBACK,
      s.id,
      { key, readerId: "amp-reader" },
      { method: "POST", body, headers: { "content-type": "text/plain" } },
    );
    expect(res.status).toBe(200);
    expect(await views(db, account.id)).toBe(1);
  });

  it("gives the web's check the same words when it asks, and refuses what is not a language tag", async () => {
    const { story, key } = await setup();
    const s = await story("subscription");
    const web = await send(ACCESS, s.id, { key, locale: "es" });
    expect(((await web.json()) as Grant).data.messages?.subscribe).toBe(
      translator("paywall", "es")("access.subscribe"),
    );
    for (const bad of ["<script>", "e", "en-", "x".repeat(40)]) {
      const res = await forward(AMP_ACCESS, s.id, { key, readerId: "r", locale: bad });
      expect(res.status, bad).toBe(400);
      const error = ((await res.json()) as { error: { details: { field: string }[] } }).error;
      expect(error.details.map((d) => d.field)).toEqual(["query.locale"]);
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (locale) => {
        const res = await forward(AMP_ACCESS, s.id, { key, readerId: "r", locale });
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 30 },
    );
  });
});
