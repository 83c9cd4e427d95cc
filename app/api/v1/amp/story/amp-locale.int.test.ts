/**
 * The AMP page in the publication's language (docs/subscriptions.md, "AMP"): its byline, time and
 * paywall line in the account's default locale, with the account's own words; the kept page is
 * dropped when they, or the account's language, change. PGlite and PostgreSQL.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { translator } from "@/i18n/translate";
import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import { saveOverride } from "@/server/i18n/overrides";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, insertAuthor, insertStory } from "@/server/testing/publishing-factories";
import { enableResponseCache } from "@/server/testing/response-cache";

import { GET } from "./route";

enableResponseCache();
beforeEach(() => forgetPublisherCache());

const get = async (slug: string) => {
  await ownWritesHeard(await getDb());
  return GET(new Request(`http://localhost/api/v1/amp/story?slug=${slug}`), { params: Promise.resolve({}) });
};

describe("the AMP page's words", () => {
  it("are the account's locale's, its own words in force, and change when they do", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "hi-IN", languageIsoCode: "hi" },
    });
    forgetPublisherCache();
    const author = await insertAuthor(db, account.id, { name: "Meera Iyer" });
    await insertStory(db, account.id, { slug: "india/budget", access: "subscription", authorIds: [author.id] });
    const hi = translator("paywall", "hi");

    const first = await get("india/budget");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-tag")?.split(",")).toContain("messages");
    const page = await first.text();
    expect(page).toContain('lang="hi"');
    expect(page).toContain(`<p class="byline">${hi("amp.byline", { authors: "Meera Iyer" })} · `);
    expect(page).toContain(`>${hi("amp.restForSubscribers")}</a>`);
    expect((await get("india/budget")).headers.get("x-cache")).toBe("HIT");

    await saveOverride(
      db,
      account.id,
      { surface: "paywall", locale: "hi", key: "amp.restForSubscribers" },
      "आगे की ख़बर सदस्यों के लिए",
      null,
    );
    const changed = await get("india/budget");
    expect(changed.headers.get("x-cache")).toBe("MISS");
    expect(await changed.text()).toContain(">आगे की ख़बर सदस्यों के लिए</a>");

    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "en-GB", languageIsoCode: "en" },
    });
    forgetPublisherCache();
    const english = await get("india/budget");
    expect(english.headers.get("x-cache")).toBe("MISS");
    const text = await english.text();
    expect(text).toContain('<p class="byline">By Meera Iyer · ');
    expect(text).toContain(">The rest of this story is for subscribers: read it on the site.</a>");
  });
});
