/**
 * TEST TOOL of the demo paywall (docs/subscriptions.md "Demo paywalled story"): sign a reader JWT
 * (HS256 with the account's shared key, the same kind a publisher's back end signs) for an e-mail
 * typed into the demo page, so a visitor can "log in" as a demo reader without a publisher site.
 * Only for the demo publisher's account (slug "demo", whose shared key is public anyway) and only
 * while the operator has DEMO_TOOLS on; anywhere else it is a 404, as if it did not exist.
 *
 * A reader who signed up at the demo's registration wall has a member by that e-mail: the JWT's
 * id is linked to it (as a publisher's back end names its own members), so signing the demo
 * reader in keeps them one reader, not a second member made from the JWT.
 */
import "server-only";

import { createHash } from "node:crypto";

import { SignJWT } from "jose";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { PUBLISHER_JWT_PROVIDER } from "../members/identities";

const DEMO_READER_JWT_SECONDS = 3600;

/** The reader's stable JWT `id` for an e-mail: the same e-mail is the same demo reader. */
function demoReaderId(email: string): string {
  return `demo-reader-${createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 24)}`;
}

export async function mintDemoReaderJwt(
  db: Db,
  args: { account: { id: number; slug: string }; email: string; now: Date; demoTools?: boolean },
): Promise<{ accesstype_jwt: string; expires_at: string; reader_id: string }> {
  const enabled = args.demoTools ?? getEnv().DEMO_TOOLS;
  if (!enabled || args.account.slug !== "demo") throw new AppError("NOT_FOUND", "There is no endpoint at this path.");
  const row = await db.account.findUnique({ where: { id: args.account.id }, select: { jwtSecret: true } });
  if (!row) throw new AppError("NOT_FOUND", "There is no endpoint at this path.");
  const email = args.email.trim().toLowerCase();
  const id = demoReaderId(email);
  const signedUp = await db.member.findFirst({ where: { accountId: args.account.id, email }, select: { id: true } });
  if (signedUp) {
    await db.memberIdentity.createMany({
      data: [
        { accountId: args.account.id, provider: PUBLISHER_JWT_PROVIDER, externalId: id, memberId: signedUp.id, email },
      ],
      skipDuplicates: true,
    });
  }
  const issuedAt = Math.floor(args.now.getTime() / 1000);
  const jwt = await new SignJWT({ id, email, name: email.split("@")[0] })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + DEMO_READER_JWT_SECONDS)
    .sign(new TextEncoder().encode(row.jwtSecret));
  return {
    accesstype_jwt: jwt,
    expires_at: new Date((issuedAt + DEMO_READER_JWT_SECONDS) * 1000).toISOString(),
    reader_id: id,
  };
}
