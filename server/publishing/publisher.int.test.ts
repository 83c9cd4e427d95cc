import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { forgetPublisherCache, HOST_CACHE_MAX, publisherCacheSizes, resolvePublisherAccountId } from "./publisher";

describe("resolvePublisherAccountId", () => {
  it("keeps a bounded cache however many made-up Host headers clients send", async () => {
    const db = await getDb();
    forgetPublisherCache();
    const publisher = await createTestPublisher(db, { slug: "the-daily" });
    for (let i = 0; i < HOST_CACHE_MAX + 200; i++) {
      expect(await resolvePublisherAccountId(db, { host: `made-up-${i}.example`, fallbackSlug: "the-daily" })).toBe(
        publisher.id,
      );
    }
    expect(publisherCacheSizes().hosts).toBeLessThanOrEqual(HOST_CACHE_MAX);
    // Still cached and still right afterwards.
    expect(await resolvePublisherAccountId(db, { host: "news.example.com", fallbackSlug: "the-daily" })).toBe(
      publisher.id,
    );
  });
});
