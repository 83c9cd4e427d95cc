/**
 * The queue's "Page or story" filter (docs/engagement.md "Search and filters") finds a page by the
 * headline of the account's story it shows, when the page itself was given no headline: by the
 * story's slug as the page's path, or by the path of the story's canonical URL; any host, with or
 * without a trailing slash. Another account's stories name none of this account's pages.
 */
import { describe, expect, it } from "vitest";

import { POST } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher, insertStory } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

async function held(accountId: number, url: string, text: string): Promise<TCommentWire> {
  const res = await call(
    POST,
    "POST",
    "/x",
    { account_id: String(accountId), encoded_url: pageId(url) },
    { comment: { body: { ops: [{ insert: text }] } }, jwt: await readerJwt({ id: "reader-ada", name: "Ada" }) },
  );
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  const { comment } = (await res.json()) as { comment: TCommentWire };
  expect(comment.is_published).toBe(false);
  return comment;
}

describe("the page filter finds a story's page by the story's headline", () => {
  it("by slug or canonical URL, in the account only", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const other = await createTestPublisher(db);
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    await insertStory(db, account.id, {
      headline: "Council votes on the library budget",
      slug: "politics/library-vote",
    });
    const byCanonical = await insertStory(db, account.id, { headline: "A take on the night trains", slug: "t-1" });
    await db.story.update({
      where: { id: byCanonical.id },
      data: { canonicalUrl: "https://news.example.com/opinion/night-trains" },
    });
    // Another account's story with the path of one of this account's pages.
    await insertStory(db, other.id, { headline: "Stadium budget overrun", slug: "sport/stadium" });

    const vote = await held(account.id, "https://news.example.com/politics/library-vote", "you idiot, vote 1");
    const trains = await held(account.id, "http://localhost/opinion/night-trains/", "you idiot, trains");
    const stadium = await held(account.id, "https://news.example.com/sport/stadium", "you idiot, stadium");
    // The pages were given no headline: only the stories have one.
    expect(await db.page.count({ where: { accountId: account.id, headline: { not: null } } })).toBe(0);

    const ids = async (page: string) =>
      (await moderator.caller.moderation.queue({ tab: "pending", filters: { page } })).items
        .map((i) => i.id)
        .sort((a, b) => a - b);
    expect(await ids("library budget")).toEqual([vote.id]);
    expect(await ids("NIGHT TRAINS")).toEqual([trains.id]);
    expect(await ids("budget")).toEqual([vote.id]);
    expect(await ids("stadium")).toEqual([stadium.id]); // by its URL, not by the other account's story
    expect(await ids("overrun")).toEqual([]);
    // Decided views filter the same way.
    await moderator.caller.moderation.act({ commentId: vote.id, action: "reject" });
    expect(
      (await moderator.caller.moderation.queue({ tab: "rejected", filters: { page: "library" } })).items.map(
        (i) => i.id,
      ),
    ).toEqual([vote.id]);
  });
});
