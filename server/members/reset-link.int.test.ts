/**
 * Where a member's reset e-mail links to, through the route (POST /api/member/forgot-password):
 * the publisher's own page for API clients, Masthead's hosted page for `page: "hosted"`, whose
 * origin comes from APP_URL or the account's domain, never from the request's Host header.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as forgotPassword } from "@/app/api/member/forgot-password/route";
import { POST as login } from "@/app/api/member/login/route";
import { POST as passwordReset } from "@/app/api/member/password/reset/route";
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { signUpMember } from "@/server/members/members";
import { forgetPublisherCache, getPublisher } from "@/server/publishing/publisher";
import { createTestPublisher } from "@/server/testing/publishing-factories";

const NO_PARAMS = { params: Promise.resolve({}) };
type Handler = (req: Request, ctx: typeof NO_PARAMS) => Promise<Response>;

let seq = 0;
const uniqueEmail = () => `reader.${Date.now().toString(36)}.${seq++}@example.com`;

function post(handler: Handler, host: string, path: string, body: unknown) {
  return handler(
    new Request(`http://${host}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", host },
      body: JSON.stringify(body),
    }),
    NO_PARAMS,
  );
}

async function memberOf(accountId: number) {
  const db = await getDb();
  const publisher = await getPublisher(db, accountId, { appUrl: getEnv().APP_URL });
  const email = uniqueEmail();
  await signUpMember(db, {
    publisher,
    input: {
      name: "Ada Reader",
      username: `ada${seq++}`,
      email,
      password: "correct horse battery",
      "dont-login": true,
    },
    now: new Date(),
  });
  return email;
}

async function resetLinkMailedTo(email: string): Promise<string> {
  const mail = await (await getDb()).outgoingEmail.findFirstOrThrow({ where: { to: email } });
  const link = /(https?:\/\/\S+\?token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  return link!;
}

beforeEach(() => forgetPublisherCache());

describe("the password reset link", () => {
  it("opens the publisher's own page for API clients, and the hosted page at APP_URL for the hosted form", async () => {
    const account = await createTestPublisher(await getDb(), { siteUrl: "https://news.example.com/" });
    const viaApi = await memberOf(account.id);
    const viaPage = await memberOf(account.id);

    expect((await post(forgotPassword, "localhost", "/api/member/forgot-password", { email: viaApi })).status).toBe(
      200,
    );
    const hosted = { email: viaPage, page: "hosted" };
    expect((await post(forgotPassword, "localhost", "/api/member/forgot-password", hosted)).status).toBe(200);

    expect(await resetLinkMailedTo(viaApi)).toMatch(/^https:\/\/news\.example\.com\/reset-password\?token=/);
    const link = new URL(await resetLinkMailedTo(viaPage));
    expect(link.origin).toBe(new URL(getEnv().APP_URL).origin);
    expect(link.pathname).toBe("/member/reset-password");

    // The hosted page's token works with the reset route, and the new password signs in.
    const token = link.searchParams.get("token")!;
    const reset = await post(passwordReset, "localhost", "/api/member/password/reset", {
      token,
      password: "a new password",
    });
    expect(reset.status).toBe(200);
    const signIn = await post(login, "localhost", "/api/member/login", { email: viaPage, password: "a new password" });
    expect(signIn.status).toBe(200);
  });

  it("ignores a forged Host header: the link's origin is still APP_URL's", async () => {
    const account = await createTestPublisher(await getDb());
    const email = await memberOf(account.id);
    // The only account answers any host; the link must not be built from this one.
    const res = await post(forgotPassword, "evil.example", "/api/member/forgot-password", { email, page: "hosted" });
    expect(res.status).toBe(200);
    const link = await resetLinkMailedTo(email);
    expect(link).not.toContain("evil.example");
    expect(new URL(link).origin).toBe(new URL(getEnv().APP_URL).origin);
  });

  it("uses the account's domain when APP_URL serves another publisher, and the publisher's page with neither", async () => {
    const db = await getDb();
    await createTestPublisher(db, { domain: "localhost" }); // APP_URL's host serves this one
    const second = await createTestPublisher(db, {
      domain: "gazette.example.org",
      siteUrl: "https://www.gazette.example",
    });
    const third = await createTestPublisher(db, { domain: null, siteUrl: "https://third.example" });
    const secondReader = await memberOf(second.id);
    const thirdReader = await memberOf(third.id);

    const asked = await post(forgotPassword, "gazette.example.org", "/api/member/forgot-password", {
      email: secondReader,
      page: "hosted",
    });
    expect(asked.status).toBe(200);
    const protocol = new URL(getEnv().APP_URL).protocol;
    expect(await resetLinkMailedTo(secondReader)).toMatch(
      new RegExp(`^${protocol}//gazette\\.example\\.org/member/reset-password\\?token=`),
    );

    // No host of Masthead's serves the third publisher: its own page, as for API clients.
    const third$ = await post(forgotPassword, "third.example", "/api/member/forgot-password", {
      email: thirdReader,
      page: "hosted",
    });
    expect(third$.status).toBe(200);
    expect(await resetLinkMailedTo(thirdReader)).toMatch(/^https:\/\/third\.example\/reset-password\?token=/);
  });

  it("refuses an unknown page with 400 and mails nothing", async () => {
    const account = await createTestPublisher(await getDb());
    const email = await memberOf(account.id);
    const res = await post(forgotPassword, "localhost", "/api/member/forgot-password", { email, page: "elsewhere" });
    expect(res.status).toBe(400);
    expect(await (await getDb()).outgoingEmail.count()).toBe(0);
  });
});
