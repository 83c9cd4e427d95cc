/**
 * POST comments.json and PUT comments/{id} with any reader text: the issue's sentence ("The
 * constructor of the new bridge said…" once answered 500), every name of an Object.prototype or
 * Array.prototype member in text, mentions, banned words and JSON keys, English words, and
 * fast-check bodies in any script (marks, emoji, NUL, lone surrogates, 100 kB). No input answers
 * a 5xx; plain text is taken.
 */
import { randomUUID } from "node:crypto";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import {
  englishWords,
  hugeText,
  inBatches,
  PROTOTYPE_NAMES,
  PROTOTYPE_SENTENCES,
  prototypeName,
  readerText,
} from "@/server/testing/hostile-text";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { PUT } from "../comments/[comment_id]/route";
import { GET, POST } from "./route";

const B64 = pageId("https://news.example.com/world/the-new-bridge");

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  // Staff's banned words are prototype names too.
  await db.commentModerationSettings.create({
    data: {
      accountId: account.id,
      bannedWords: [
        { word: "hasOwnProperty", action: "hold" },
        { word: "__proto__", action: "flag" },
        { word: "valueOf", action: "flag" },
      ],
    },
  });
  return { db, id: String(account.id) };
}

/** A new reader each time: no slow mode or repeat check between the cases. */
const jwt = () => readerJwt({ id: `reader-${randomUUID()}`, name: "Ada" });
const create = (id: string, body: unknown) => call(POST, "POST", "/x", { account_id: id, encoded_url: B64 }, body);
const edit = (id: string, commentId: number, body: unknown) =>
  call(PUT, "PUT", "/x", { account_id: id, encoded_url: B64, comment_id: String(commentId) }, body);

/** The status, after checking that a refusal says what was wrong as JSON. */
async function statusOf(res: Response): Promise<number> {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) expect(((await res.json()) as { error?: { code?: string } }).error?.code).toBeTruthy();
  return res.status;
}

const NAME = prototypeName;
const junk = fc.dictionary(fc.oneof(NAME, fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 3,
});
/** Text a reader may send: any script, marks, emoji, NUL and lone surrogates, prototype names. */
const text = fc.oneof(
  { arbitrary: readerText(200).filter((t) => t.length > 0), weight: 3 },
  { arbitrary: fc.constantFrom(...PROTOTYPE_SENTENCES), weight: 1 },
);
/** The four shapes of op a client sends, with any text and prototype names in every field. */
const validOp = fc.oneof(
  { arbitrary: text.map((insert) => ({ insert })), weight: 4 },
  {
    arbitrary: fc
      .tuple(NAME, text)
      .map(([name, insert]) => ({ attributes: { link: `https://example.com/${name}` }, insert })),
    weight: 1,
  },
  {
    arbitrary: NAME.map((name) => ({
      attributes: { mention: { name, slug: name, id: name, avatar: null }, link: name },
      insert: { mentions: true },
    })),
    weight: 1,
  },
);
/** Bodies a client may send: mostly well-formed, some with junk ops keyed by prototype names. */
const ops = fc.oneof(
  { arbitrary: fc.array(validOp, { minLength: 1, maxLength: 6 }), weight: 3 },
  { arbitrary: fc.array(fc.oneof(validOp, junk), { minLength: 0, maxLength: 6 }), weight: 1 },
);

describe("comments with any reader text", () => {
  it("takes the issue's sentence and every prototype name, in text, mentions and banned words", async () => {
    const { id } = await setup();
    const res = await create(id, {
      comment: { body: { ops: [{ insert: "The constructor of the new bridge said it would open in May." }] } },
      jwt: await jwt(),
    });
    expect(await statusOf(res)).toBe(201);
    const { comment } = (await res.json()) as { comment: TCommentWire };
    expect(comment.body.ops).toEqual([{ insert: "The constructor of the new bridge said it would open in May.\n" }]);
    for (const batch of inBatches(PROTOTYPE_SENTENCES, 40)) {
      const token = await jwt();
      const made = await create(id, { comment: { body: { ops: [{ insert: batch }] } }, jwt: token });
      expect(await statusOf(made), batch.slice(0, 80)).toBe(201);
      const { comment: written } = (await made.json()) as { comment: TCommentWire };
      expect(
        await statusOf(await edit(id, written.id, { comment: { ops: [{ insert: `${batch} again` }] }, jwt: token })),
      ).toBe(200);
    }
    const mentions = PROTOTYPE_NAMES.slice(0, 40).map((name) => ({
      attributes: { mention: { name, slug: name, id: name }, link: name },
      insert: { mentions: true },
    }));
    expect(
      await statusOf(
        await create(id, { comment: { body: { ops: [...mentions, { insert: "hi" }] } }, jwt: await jwt() }),
      ),
    ).toBe(201);
    const list = await call(GET, "GET", `/x?${PROTOTYPE_NAMES.map((n) => `${n}=1`).join("&")}`, {
      account_id: id,
      encoded_url: B64,
    });
    expect(await statusOf(list)).toBe(200);
  });

  it("takes English words, a sample of the word list's batches", async () => {
    const { id } = await setup();
    const batches = inBatches(englishWords(), 900);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: batches.length - 1 }), async (i) => {
        const res = await create(id, {
          comment: { body: { ops: [{ insert: batches[i]!.slice(0, 9_000) }] } },
          jwt: await jwt(),
        });
        expect(await statusOf(res)).toBe(201);
      }),
      { numRuns: 12 },
    );
  });

  it("answers no 5xx to generated bodies, on create and on edit", async () => {
    const { id } = await setup();
    const token = await jwt();
    const first = await create(id, { comment: { body: { ops: [{ insert: "First" }] } }, jwt: token });
    const { comment } = (await first.json()) as { comment: TCommentWire };
    await fc.assert(
      fc.asyncProperty(ops, junk, async (generated, extra) => {
        await statusOf(await create(id, { ...extra, comment: { body: { ops: generated } }, jwt: await jwt() }));
        await statusOf(await edit(id, comment.id, { ...extra, comment: { ops: generated }, jwt: token }));
      }),
      { numRuns: 40 },
    );
  });

  it("answers no 5xx to bodies of 100 kB and to JSON that sets __proto__", async () => {
    const { id } = await setup();
    const token = await jwt();
    await fc.assert(
      fc.asyncProperty(hugeText, async (text) => {
        // Too long (413), or refused for what it holds (400) first.
        const status = await statusOf(
          await create(id, { comment: { body: { ops: [{ insert: text }] } }, jwt: await jwt() }),
        );
        expect([400, 413]).toContain(status);
      }),
      { numRuns: 3 },
    );
    const raw = `{"__proto__": {"comment": {"body": {"ops": [{"insert": "x"}]}}}, "constructor": {"prototype": 1}, "jwt": ${JSON.stringify(token)}}`;
    expect(await statusOf(await create(id, raw))).toBe(400);
    const nested = `{"comment": {"body": {"ops": [{"insert": "x", "__proto__": {"attributes": 1}}]}}, "jwt": ${JSON.stringify(token)}}`;
    expect(await statusOf(await create(id, nested))).toBe(400);
  });
});
