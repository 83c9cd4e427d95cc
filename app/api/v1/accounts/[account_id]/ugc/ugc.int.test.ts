/**
 * POST .../ugc and GET .../ugc/me: readers' contributions, validated and stored as data, pending
 * review, idempotent against double submits, scored, and only ever their own account's and reader's.
 */
import { describe, expect, it } from "vitest";

import type { TFeed } from "@/server/engagement/feed.schema";
import type { TUgcSubmissionWire } from "@/server/engagement/ugc.schema";
import { setupPublisher } from "@/server/testing/comment-calls";
import { call, readerJwt } from "@/server/testing/engagement";
import { createTestStaff } from "@/server/testing/staff";

import { GET as MINE } from "./me/route";
import { POST } from "./route";

const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };

type Answer = { submission: TUgcSubmissionWire };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const good = (extra: Record<string, unknown> = {}) => ({
  topic_type: "tag",
  topic_values: "elections, city-council",
  title: "Polling station queue",
  text: "The queue at my polling station was two hours long.",
  ...extra,
});

async function submit(id: string, submission: unknown, reader: { id: string; name: string } | null = ADA) {
  const body = reader ? { jwt: await readerJwt(reader), submission } : { submission };
  return call(POST, "POST", "/x", { account_id: id }, body);
}

async function mine(id: string, reader = ADA, query = ""): Promise<TFeed<TUgcSubmissionWire>> {
  const res = await call(MINE, "GET", `/x?jwt=${await readerJwt(reader)}${query}`, { account_id: id });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return (await res.json()) as TFeed<TUgcSubmissionWire>;
}

describe("POST /ugc", () => {
  it("stores a pending submission of the reader, topic values split and trimmed, and answers 201", async () => {
    const { db, id, account } = await setupPublisher();
    const res = await submit(id, {
      ...good(),
      links: ["https://news.example.com/source"],
      images: ["https://images.example.com/ugc/queue.jpg"],
    });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    // The rule closest to its limit is shown: the reader's (20 a minute), not the IP's (30).
    expect(res.headers.get("ratelimit-limit")).toBe("20");
    const { submission } = (await res.json()) as Answer;
    expect(submission).toEqual({
      id: expect.any(Number) as number,
      topic_type: "tag",
      topic_values: ["elections", "city-council"],
      title: "Polling station queue",
      text: "The queue at my polling station was two hours long.",
      links: ["https://news.example.com/source"],
      images: ["https://images.example.com/ugc/queue.jpg"],
      status: "pending",
      created_at: expect.any(String) as string,
      decided_at: null,
    });
    const row = await db.ugcSubmission.findUniqueOrThrow({ where: { id: submission.id }, include: { member: true } });
    expect(row.accountId).toBe(account.id);
    expect(row.member.name).toBe("Ada");
    expect(row.toxicity).toBe(0);
    expect(row.isSpam).toBe(false);
    // An array of values works too, and the type is read in lower case.
    const arr = await submit(id, good({ topic_type: "Section", topic_values: ["Sport", "Sport", " Local "] }));
    expect(((await arr.json()) as Answer).submission).toMatchObject({
      topic_type: "section",
      topic_values: ["Sport", "Local"],
    });
  });

  it("keeps HTML and script in the text as inert data, and scores the submission", async () => {
    const { db, id } = await setupPublisher();
    const html = `<script>alert("x")</script><img src=x onerror=alert(1)> & <b>bold</b>\r\nline two`;
    const res = await submit(id, good({ text: html, title: "<i>Title</i>" }));
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as Answer;
    expect(submission.text).toBe(html.replace("\r\n", "\n"));
    expect(submission.title).toBe("<i>Title</i>");
    const toxic = await submit(id, good({ text: "You idiot, shut up" }));
    const row = await db.ugcSubmission.findUniqueOrThrow({
      where: { id: ((await toxic.json()) as Answer).submission.id },
    });
    expect(row.toxicity).toBeGreaterThanOrEqual(70);
    expect(row.moderationReasons).toContain("held.toxicity");
    expect(row.status).toBe("PENDING");
  });

  it("refuses a missing or bad jwt (401) and bad input (400), storing nothing", async () => {
    const { db, id } = await setupPublisher();
    expect((await submit(id, good(), null)).status).toBe(401);
    const forged = await readerJwt(ADA, { secret: "not-the-shared-secret-0000000000000" });
    expect((await call(POST, "POST", "/x", { account_id: id }, { jwt: forged, submission: good() })).status).toBe(401);
    const cases: [unknown, string][] = [
      [good({ topic_type: "" }), "body.submission.topic_type"],
      [good({ topic_type: "<script>" }), "body.submission.topic_type"],
      [good({ topic_type: "a".repeat(51) }), "body.submission.topic_type"],
      [good({ topic_values: "" }), "body.submission.topic_values"],
      [good({ topic_values: " , ," }), "body.submission.topic_values"],
      [good({ topic_values: Array.from({ length: 21 }, (_, i) => `v${i}`) }), "body.submission.topic_values"],
      [good({ topic_values: ["ok", "x".repeat(201)] }), "body.submission.topic_values.1"],
      [good({ text: "   \n " }), "body.submission.text"],
      [good({ text: "bell \u0007" }), "body.submission.text"],
      [good({ title: "two\nlines" }), "body.submission.title"],
      [good({ title: "t".repeat(201) }), "body.submission.title"],
      [good({ links: ["javascript:alert(1)"] }), "body.submission.links.0"],
      [good({ links: ["ftp://example.com/x"] }), "body.submission.links.0"],
      [good({ links: ["https://user:pw@example.com/"] }), "body.submission.links.0"],
      [good({ links: Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`) }), "body.submission.links"],
      [good({ images: ["https://evil.example.com/ugc/x.jpg"] }), "body.submission.images.0"],
      [good({ images: ["data:image/png;base64,AAAA"] }), "body.submission.images.0"],
      [good({ html: "<b>" }), "body.submission"],
      [{ ...good(), text: undefined }, "body.submission.text"],
    ];
    for (const [submission, field] of cases) {
      const res = await submit(id, submission);
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(submission)).toBe(400);
      expect(body.error.code).toBe("BAD_REQUEST");
      expect(
        body.error.details?.map((d) => d.field),
        JSON.stringify(submission),
      ).toContain(field);
    }
    expect(await db.ugcSubmission.count()).toBe(0);
  });

  it("answers 413 for text over 10,000 characters and bodies over 64 KiB", async () => {
    const { db, id } = await setupPublisher();
    const long = await submit(id, good({ text: "a".repeat(10_001) }));
    expect(long.status).toBe(413);
    expect(((await long.json()) as ErrorBody).error.details?.[0]?.field).toBe("body.submission.text");
    const huge = await submit(id, good({ text: "a".repeat(70 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await db.ugcSubmission.count()).toBe(0);
    expect((await submit(id, good({ text: "a".repeat(10_000) }))).status).toBe(201);
  });

  it("makes one submission of a double submit, also when the requests arrive at once", async () => {
    const { db, id } = await setupPublisher();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => submit(id, good(), { id: "new-reader", name: "N" })),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as Answer).submission.id));
    expect(new Set(ids).size).toBe(1);
    expect(await db.ugcSubmission.count()).toBe(1);
    expect(await db.memberIdentity.count({ where: { externalId: "new-reader" } })).toBe(1);
    // Different content, or another reader, is another submission.
    expect((await submit(id, good({ text: "Something else" }), { id: "new-reader", name: "N" })).status).toBe(201);
    expect((await submit(id, good(), BO)).status).toBe(201);
    expect(await db.ugcSubmission.count()).toBe(3);
  });

  it("refuses a banned reject word as a comment would (400)", async () => {
    const { db, id, account } = await setupPublisher();
    await db.commentModerationSettings.create({
      data: { accountId: account.id, bannedWords: [{ word: "gizmo", action: "reject" }] },
    });
    const res = await submit(id, good({ text: "Buy a G1ZMO now" }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).not.toContain("gizmo");
    expect(await db.ugcSubmission.count()).toBe(0);
  });
});

describe("a banned reader", () => {
  it("cannot submit (403, saying until when), and nothing is stored; lifted, they can", async () => {
    const { db, id, account } = await setupPublisher();
    expect((await submit(id, good())).status).toBe(201); // Ada is a member now
    const member = await db.member.findFirstOrThrow({ where: { accountId: account.id, name: "Ada" } });
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    const until = new Date(Date.now() + 3 * 86_400_000);
    const ban = await db.commentBan.create({
      data: {
        accountId: account.id,
        memberId: member.id,
        reason: "abuse",
        expiresAt: until,
        createdById: moderator.user.id,
      },
    });
    const res = await submit(id, good({ text: "Another contribution while banned." }));
    expect(res.status).toBe(403);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe("FORBIDDEN");
    expect(body.error.message).toContain(until.toISOString());
    expect(await db.ugcSubmission.count()).toBe(1);
    await db.commentBan.update({
      where: { id: ban.id },
      data: { liftedAt: new Date(), liftedById: moderator.user.id },
    });
    expect((await submit(id, good({ text: "Another contribution, ban lifted." }))).status).toBe(201);
  });
});

describe("GET /ugc/me", () => {
  it("lists the reader's own submissions with their status, newest first, paged; never another reader's or account's", async () => {
    const { db, id } = await setupPublisher();
    const { id: otherId } = await setupPublisher();
    const made: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await submit(id, good({ text: `Story ${i}` }));
      made.push(((await res.json()) as Answer).submission.id);
    }
    await submit(id, good({ text: "Bo's" }), BO);
    await submit(otherId, good({ text: "Ada elsewhere" }));
    await db.ugcSubmission.update({ where: { id: made[0] }, data: { status: "APPROVED", decidedAt: new Date() } });

    const all = await mine(id);
    expect(all.items.map((s) => s.id)).toEqual([...made].reverse());
    expect(all.items[2]).toMatchObject({ status: "approved", decided_at: expect.any(String) as string });
    expect(all.next_cursor).toBeNull();
    const first = await mine(id, ADA, "&limit=2");
    expect(first.items.map((s) => s.id)).toEqual([made[2], made[1]]);
    const second = await mine(id, ADA, `&limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((s) => s.id)).toEqual([made[0]]);
    expect(second.next_cursor).toBeNull();
    expect((await mine(id, ADA, "&status=approved")).items.map((s) => s.id)).toEqual([made[0]]);
    expect((await mine(otherId)).items.map((s) => s.text)).toEqual(["Ada elsewhere"]);
    expect((await mine(id, { id: "nobody", name: "N" })).items).toEqual([]);

    expect((await call(MINE, "GET", "/x", { account_id: id })).status).toBe(401);
    for (const q of ["&limit=0", "&limit=51", "&status=done", "&cursor=abc"]) {
      const res = await call(MINE, "GET", `/x?jwt=${await readerJwt(ADA)}${q}`, { account_id: id });
      expect(res.status, q).toBe(400);
    }
  });
});
