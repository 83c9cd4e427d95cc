/**
 * Conversation tools through the response cache (docs/engagement.md "Response cache",
 * "Conversation tools"): featuring a comment and making a page a Q&A page purge the kept lists;
 * a reader's editable_until and awaiting_answer are laid over the kept anonymous answer, the same
 * JSON as a list built for that reader, and never kept.
 */
import { describe, expect, it } from "vitest";

import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import { listComments } from "@/server/engagement/comments";
import { ZListCommentsQuery } from "@/server/engagement/comments.schema";
import { listPageComments, postComment, setupPublisher } from "@/server/testing/comment-calls";
import { pageId, readerJwt } from "@/server/testing/engagement";
import { enableResponseCache } from "@/server/testing/response-cache";
import { createTestStaff } from "@/server/testing/staff";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);
const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };

enableResponseCache();

async function setup() {
  const { db, account, id } = await setupPublisher({ editWindowMinutes: 10 });
  const moderator = (await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] })).caller;
  const first = await post(id, "First", ADA);
  const second = await post(id, "Second", BO);
  return { db, account, id, moderator, first, second };
}

const post = (id: string, text: string, reader: typeof ADA) => postComment(id, URL_A, reader, text);

const list = (id: string, query = "") => listPageComments(id, URL_A, query);

async function kept(id: string, query = "") {
  await ownWritesHeard(await getDb());
  expect((await list(id, query)).cache).toBe("MISS");
  expect((await list(id, query)).cache).toBe("HIT");
}

describe("conversation tools through the response cache", () => {
  it("featuring and unfeaturing purge the kept lists", async () => {
    const s = await setup();
    await kept(s.id, "?featured=first");
    await s.moderator.moderation.feature({ commentId: s.first.id, featured: true });
    await ownWritesHeard(s.db);
    const after = await list(s.id, "?featured=first");
    expect(after.cache).toBe("MISS");
    expect(after.body.featured_comments!.map((c) => c.id)).toEqual([s.first.id]);
    expect((await list(s.id, "?featured=first")).cache).toBe("HIT");
    await s.moderator.moderation.feature({ commentId: s.first.id, featured: false });
    await ownWritesHeard(s.db);
    const unfeatured = await list(s.id, "?featured=first");
    expect(unfeatured.cache).toBe("MISS");
    expect(unfeatured.body.featured_comments).toEqual([]);
  });

  it("making a page a Q&A page, and marking a question answered, purge the kept lists", async () => {
    const s = await setup();
    await kept(s.id);
    await s.moderator.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0, qaMode: true });
    await ownWritesHeard(s.db);
    const qa = await list(s.id);
    expect(qa.cache).toBe("MISS");
    expect(qa.body.comments).toEqual([]);
    expect((await list(s.id)).cache).toBe("HIT");
    await s.moderator.moderation.markAnswered({ commentId: s.second.id, answered: true });
    await ownWritesHeard(s.db);
    const answered = await list(s.id);
    expect(answered.cache).toBe("MISS");
    expect(answered.body.comments.map((c) => c.id)).toEqual([s.second.id]);
  });

  it("lays the reader's editable_until and awaiting_answer over the kept answer: the same JSON as built for them", async () => {
    const s = await setup();
    await s.moderator.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0, qaMode: true });
    await s.moderator.moderation.markAnswered({ commentId: s.second.id, answered: true });
    await s.moderator.moderation.feature({ commentId: s.second.id, featured: true });
    await ownWritesHeard(s.db);
    for (const [reader, query] of [
      [ADA, ""],
      [BO, "?featured=first"],
      [ADA, "?featured=first&sort_order=oldest"],
    ] as const) {
      const jwt = await readerJwt(reader);
      const sep = query ? "&" : "?";
      const miss = await list(s.id, `${query}${sep}jwt=${jwt}`);
      const hit = await list(s.id, `${query}${sep}jwt=${jwt}`);
      expect(hit.cache).toBe("HIT");
      const built = JSON.stringify(
        await listComments(s.db, {
          accountId: s.account.id,
          encodedUrl: B64,
          query: ZListCommentsQuery.parse(Object.fromEntries(new URLSearchParams(query))),
          viewer: { ...reader, email: null, avatarUrl: null, provider: null },
        }),
      );
      expect(miss.text).toBe(built);
      expect(hit.text).toBe(built);
    }
    const ada = (await list(s.id, `?jwt=${await readerJwt(ADA)}`)).body;
    expect(ada.awaiting_answer!.map((c) => c.id)).toEqual([s.first.id]);
    expect(ada.awaiting_answer![0]!.editable_until).toBe(
      new Date(Date.parse(s.first.created_at) + 10 * 60_000).toISOString(),
    );
    const bo = (await list(s.id, `?featured=first&jwt=${await readerJwt(BO)}`)).body;
    expect(bo.featured_comments![0]!.editable_until).toBe(
      new Date(Date.parse(s.second.created_at) + 10 * 60_000).toISOString(),
    );
    // The kept answer stays anonymous.
    const anonymous = await list(s.id, "?featured=first");
    expect(anonymous.cache).toBe("HIT");
    expect(anonymous.text).not.toMatch(/editable_until|awaiting_answer|my_reactions/);
  });
});
