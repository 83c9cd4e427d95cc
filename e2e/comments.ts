/**
 * Shared by the specs that post comments as a publisher's site would (moderation, its decided
 * views, the Community page): a reader's JWT signed with the account's shared key, a page's id,
 * a comment posted through the REST API, and a made-up reader of the demo account on a page of their own.
 */
import type { APIRequestContext } from "@playwright/test";
import { SignJWT } from "jose";

import { demoAccount } from "./fixtures";

export function readerJwt(claims: { id: string; name: string }, secret: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));
}

/** The page id of a URL: base64 of the URL, URL-safe alphabet (docs/engagement.md "Pages and their ids"). */
export const pageIdOf = (url: string) => Buffer.from(url).toString("base64url");

export function postComment(request: APIRequestContext, accountId: number, b64: string, text: string, jwt: string) {
  return request.post(`/api/v1/accounts/${accountId}/pages/${b64}/comments.json`, {
    data: { comment: { body: { ops: [{ insert: text }] } }, jwt },
  });
}

/** How many comments the page shows the public (its list's total_count). */
export async function publicCommentCount(request: APIRequestContext, accountId: number, b64: string): Promise<number> {
  const res = await request.get(`/api/v1/accounts/${accountId}/pages/${b64}/comments.json`);
  return ((await res.json()) as { total_count: number }).total_count;
}

/**
 * A reader of the demo account made up for one test: named `<name> <stamp>`, with the JWT of reader
 * `<id>-<stamp>`, and the id (b64) of their page https://localhost/news/<page>-<stamp>.
 */
export async function demoReader(stamp: string, made: { name: string; id: string; page: string }) {
  const { accountId, jwtSecret } = demoAccount();
  const name = `${made.name} ${stamp}`;
  const jwt = await readerJwt({ id: `${made.id}-${stamp}`, name }, jwtSecret);
  return { accountId, jwtSecret, name, jwt, b64: pageIdOf(`https://localhost/news/${made.page}-${stamp}`) };
}
