/**
 * The comment routes in integration tests (app/api/v1/accounts/…/pages/…/comments.json): a
 * publisher on the test database, with comment moderation settings when given (`setupPublisher`);
 * a reader's comment posted on a page, answered 201 (`postComment`); a page's comment list read
 * with the response cache's verdict (`listPageComments`); a comment hidden by a reader (`hideComment`).
 */
import { expect } from "vitest";

import {
  POST as CREATE,
  GET as LIST,
} from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { POST as HIDE } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments/[comment_id]/hide/route";

import { getDb } from "../db";
import type { TCommentList, TCommentWire } from "../engagement/comments.schema";
import { call, pageId, readerJwt } from "./engagement";
import { createTestPublisher } from "./publishing-factories";

/** A publisher, its comment moderation settings when any are given, and its id as the routes' account_id. */
export async function setupPublisher(settings: Record<string, unknown> = {}) {
  const db = await getDb();
  const account = await createTestPublisher(db);
  if (Object.keys(settings).length) {
    await db.commentModerationSettings.create({ data: { accountId: account.id, ...settings } });
  }
  return { db, account, id: String(account.id) };
}

/** `reader` comments `words` on the page `url` of account `id` (a reply to `parent` when given): 201. */
export async function postComment(
  id: string,
  url: string,
  reader: Record<string, unknown>,
  words: string,
  parent?: number,
): Promise<TCommentWire> {
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(url) },
    {
      comment: { body: { ops: [{ insert: words }] }, ...(parent ? { parent_comment_id: parent } : {}) },
      jwt: await readerJwt(reader),
    },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

/** The comments of the page `url` of account `id` (200), with the response cache's X-Cache. */
export async function listPageComments(id: string, url: string, query = "") {
  const b64 = pageId(url);
  const res = await call(LIST, "GET", `/api/v1/accounts/${id}/pages/${b64}/comments.json${query}`, {
    account_id: id,
    encoded_url: b64,
  });
  expect(res.status).toBe(200);
  return {
    cache: res.headers.get("x-cache"),
    res,
    text: await res.clone().text(),
    body: (await res.json()) as TCommentList,
  };
}

/** `reader` hides the comment `commentId` of the page `url` of account `id` (the answer, unread). */
export async function hideComment(id: string, url: string, commentId: number, reader: Record<string, unknown>) {
  return call(
    HIDE,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(url), comment_id: String(commentId) },
    { jwt: await readerJwt(reader) },
  );
}
