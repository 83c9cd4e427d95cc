/** Calling the engagement routes in integration tests: publisher JWTs, page ids, requests. */
import { SignJWT } from "jose";

import { lexiconScorer } from "../engagement/moderation/lexicon/lexicon-scorer";
import { encodePageId } from "../engagement/pages";

const TEST_JWT_SECRET = "publisher-shared-secret-for-tests-0001";

/** A publisher-signed HS256 JWT for a reader (claims id, name, …), valid for an hour unless `exp` is given. */
export function readerJwt(
  claims: Record<string, unknown> = { id: "reader-1", name: "Ada" },
  options: { secret?: string; exp?: number | string } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(options.exp ?? "1h")
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

/** An unsigned token (`alg: none`), which must never be taken. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

export const pageId = (url: string) => encodePageId(url);

type Params = Record<string, string>;
type Handler = (req: Request, ctx: { params: Promise<Params> }) => Promise<Response>;

/** Call a route handler with a JSON body (or none) and the path params. */
export function call(
  handler: Handler,
  method: string,
  path: string,
  params: Params,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: { host: "localhost", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
}

/**
 * The built-in scorer's toxicity for a comment of plain text `text`, as a create scores it (the
 * text of its ops, which end with a line break): what the API must answer for it.
 */
export function builtInToxicity(text: string): number {
  const ops = text.endsWith("\n") ? text : `${text}\n`;
  const score = lexiconScorer.score({
    text: ops,
    links: [],
    mentions: [],
    images: [],
    reader: { isNew: true, publishedComments: 0, firstCommentAt: null },
  });
  // The lexicon scorer answers at once (its interface allows a promise for other scorers).
  if (score instanceof Promise) throw new Error("the lexicon scorer answered a promise");
  return score.toxicity;
}
