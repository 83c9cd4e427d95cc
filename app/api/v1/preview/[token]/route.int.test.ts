// GET /api/v1/preview/<token>: the publication's front end reads the draft a preview link names.
import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createPreviewLink } from "@/server/publishing/editorial/preview";
import { signPreviewToken } from "@/server/publishing/editorial/preview-token";
import { createStory } from "@/server/publishing/editorial/stories/write";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, textCards } from "@/server/testing/publishing-factories";
import { callGet, readJson } from "@/server/testing/route-calls";
import { insertEditor } from "@/server/testing/staff";

import { GET } from "./route";

const APP_URL = "http://localhost:3000";

beforeEach(() => forgetPublisherCache());

describe("GET /api/v1/preview/<token>", () => {
  it("answers the draft in the stories' shape, never cached; 404 forged, 410 expired, 400 too long", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
    const actor = await insertEditor(db, account.id);
    const { story } = await createStory(db, {
      actor,
      now: new Date(),
      appUrl: APP_URL,
      input: { headline: "Not out yet", cards: textCards("Draft words") },
    });
    const link = await createPreviewLink(db, { actor, storyId: story.id, now: new Date(), appUrl: APP_URL });
    const token = new URL(link.url).pathname.split("/")[2]!;

    const ok = await callGet(GET, `/api/v1/preview/${token}`, { token });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toContain("no-store");
    expect(await readJson<{ story: Record<string, unknown> }>(ok)).toMatchObject({
      story: { id: story.id, headline: "Not out yet", status: "draft" },
    });

    const [id, expiry] = token.split(".");
    const forged = `${id}.${expiry}.${"A".repeat(43)}`;
    expect((await callGet(GET, `/api/v1/preview/${forged}`, { token: forged })).status).toBe(404);
    const expired = signPreviewToken(story.id, new Date(Date.now() - 1000));
    expect((await callGet(GET, `/api/v1/preview/${expired}`, { token: expired })).status).toBe(410);
    const long = "x".repeat(300);
    expect((await callGet(GET, `/api/v1/preview/${long}`, { token: long })).status).toBe(400);
  });
});
