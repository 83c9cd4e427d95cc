/**
 * Calling the member routes in integration tests: their handlers called directly with JSON
 * requests on localhost, the answer's body and cookies, unique e-mail addresses, and a member with
 * a session made by the domain functions the sign-up route uses (which does not count against the
 * route's per-IP limit).
 */
import { getDb } from "../db";
import { memberToWire, signUpMember } from "../members/members";
import { createMemberSession } from "../members/sessions";
import { resolvePublisher } from "../publishing/publisher";

export const NO_PARAMS = { params: Promise.resolve({}) };
type Handler = (req: Request, ctx: typeof NO_PARAMS) => Promise<Response>;

let seq = 0;
/** A number not handed out before in this process (for usernames). */
export const nextSeq = () => seq++;
export const uniqueEmail = (prefix = "reader") => `${prefix}.${Date.now().toString(36)}.${seq++}@example.com`;

export function post(handler: Handler, path: string, body: unknown, headers: Record<string, string> = {}) {
  return postRaw(handler, path, JSON.stringify(body), headers);
}
/** POST a body exactly as given (JSON text that JSON.stringify would not write). */
export function postRaw(handler: Handler, path: string, body: string, headers: Record<string, string> = {}) {
  return handler(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }),
    NO_PARAMS,
  );
}
export function get(handler: Handler, path: string, headers: Record<string, string> = {}) {
  return handler(new Request(`http://localhost${path}`, { headers }), NO_PARAMS);
}
export async function json(res: Response) {
  return (await res.json()) as Record<string, unknown> & {
    error: { code: string; message: string; details?: { field: string; issue: string }[] };
  };
}
export const setCookies = (res: Response) => res.headers.getSetCookie();

/** A member with a session, made by the domain functions the route uses. */
export async function signupMember() {
  const db = await getDb();
  const publisher = await resolvePublisher(db, { host: "localhost" });
  const email = uniqueEmail();
  const username = `ada${seq++}`;
  const password = "correct horse battery";
  const { member } = await signUpMember(db, {
    publisher,
    input: { name: "Ada Reader", username, email, password, "dont-login": true },
    now: new Date(),
  });
  const { token } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 30 });
  return {
    email,
    username,
    password,
    member: memberToWire(member) as Record<string, unknown>,
    token: token as string | null,
  };
}
