/**
 * Slow mode holds under simultaneous posts (docs/engagement.md "Rules before publishing"): the
 * check is made again under the reader's claim (comment-write.ts), so a reader who sends several
 * different comments to a slow page at once gets one comment and a 429 for each of the others,
 * with the seconds to wait; identical posts sent at once are still one comment answered to all.
 */
import { describe, expect, it } from "vitest";

import type { ApiUser } from "../auth/api-auth";
import { ownWritesHeard } from "../cache/process-cache";
import { getDb } from "../db";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { pageId } from "../testing/engagement";
import { createTestPublisher } from "../testing/publishing-factories";
import { createComment } from "./comments";

const URL_A = "https://news.example.com/politics/a-slow-story";
const URL_B = "https://news.example.com/politics/another-story";
const reader = (id: string): ApiUser => ({ id, name: id, email: null, avatarUrl: null, provider: null });
const ADA = reader("ada");

function post(db: Db, accountId: number, user: ApiUser, text: string, url = URL_A, now = new Date()) {
  return createComment(db, {
    account: { id: accountId, slug: "x", name: "x" },
    user,
    encodedUrl: pageId(url),
    input: { comment: { body: { ops: [{ insert: text }] } } },
    now,
  });
}

/** A page in slow mode: made by another reader's first comment, then slowed. */
async function slowPage(seconds: number) {
  const db = await getDb();
  const account = await createTestPublisher(db);
  await post(db, account.id, reader("bo"), "The first comment on this page, from someone else.");
  await db.page.updateMany({ where: { accountId: account.id }, data: { slowModeSeconds: seconds } });
  await ownWritesHeard(db);
  return { db, account };
}

const commentsOf = (db: Db, accountId: number, name: string) =>
  db.comment.count({ where: { accountId, author: { name } } });

describe("slow mode under simultaneous posts", () => {
  it("five different comments sent at once: one is written, four are 429 with the wait", async () => {
    const { db, account } = await slowPage(60);
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) => post(db, account.id, ADA, `My point number ${n} about this story, at length.`)),
    );
    const written = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(written).toHaveLength(1);
    expect(refused).toHaveLength(4);
    for (const { reason } of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect((reason as AppError).code).toBe("RATE_LIMITED");
      const wait = Number((reason as AppError).headers?.["Retry-After"]);
      expect(wait).toBeGreaterThan(50);
      expect(wait).toBeLessThanOrEqual(60);
    }
    expect(await commentsOf(db, account.id, "ada")).toBe(1);
  });

  it("identical comments sent at once are one comment, answered to every post, never a 429", async () => {
    const { db, account } = await slowPage(60);
    const results = await Promise.all(
      [1, 2, 3].map(() => post(db, account.id, ADA, "The same words, sent three times by a double click.")),
    );
    expect(new Set(results.map((r) => r.response.comment.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await commentsOf(db, account.id, "ada")).toBe(1);
  });

  it("another page is not slowed, and the wait ends after the seconds", async () => {
    const { db, account } = await slowPage(30);
    const start = new Date();
    await post(db, account.id, ADA, "A first comment on the slow page.", URL_A, start);
    await expect(
      post(db, account.id, ADA, "Too soon on the slow page.", URL_A, new Date(start.getTime() + 10_000)),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect((await post(db, account.id, ADA, "Elsewhere, at once.", URL_B, start)).created).toBe(true);
    // Back on the slow page: its last comment there is 31 s old.
    const later = await post(db, account.id, ADA, "After the wait.", URL_A, new Date(start.getTime() + 31_000));
    expect(later.created).toBe(true);
    expect(await commentsOf(db, account.id, "ada")).toBe(3);
  });
});
