/**
 * First owner of a production instance, where the demo seed is refused: creates the publisher
 * account when none exists (with fresh keys, shown once) and an OWNER admin user.
 */
import { randomBytes } from "node:crypto";

import { z } from "zod";

import { recordAudit } from "../audit/audit-log";
import { systemActor } from "../auth/actor";
import { createApiKey } from "../auth/api-keys";
import { hashPassword } from "../auth/password";
import type { Db } from "../db/client";
import { AppError } from "../errors";

const ZCreateOwnerInput = z.object({
  email: z.string().trim().toLowerCase().email("must be an e-mail address"),
  name: z.string().trim().min(1, "is required").max(120),
  password: z.string().min(12, "must be at least 12 characters").max(200),
  accountName: z.string().trim().min(1).max(120).default("My newsroom"),
  accountSlug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lower-case letters, digits and dashes")
    .default("main"),
});
type TCreateOwnerInput = z.input<typeof ZCreateOwnerInput>;

type CreatedOwner = {
  accountId: number;
  userId: string;
  /** Present only when this call created the account: the keys are shown this once. */
  newAccount?: { clientKey: string; serverKey: string; jwtSecret: string };
};

export async function createOwner(db: Db, input: TCreateOwnerInput): Promise<CreatedOwner> {
  const args = ZCreateOwnerInput.parse(input);
  if (await db.adminUser.findUnique({ where: { email: args.email } })) {
    throw new AppError("CONFLICT", `An admin user with the e-mail ${args.email} already exists.`);
  }
  let account = await db.account.findFirst({ orderBy: { id: "asc" } });
  let newAccount: CreatedOwner["newAccount"];
  if (!account) {
    const jwtSecret = randomBytes(32).toString("base64url");
    account = await db.account.create({ data: { slug: args.accountSlug, name: args.accountName, jwtSecret } });
    const client = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "Client key" });
    const server = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "Server key (X-SUBAUTH)" });
    newAccount = { clientKey: client.key, serverKey: server.key, jwtSecret };
  }
  const user = await db.adminUser.create({
    data: {
      accountId: account.id,
      email: args.email,
      name: args.name,
      roles: ["OWNER"],
      passwordHash: await hashPassword(args.password),
    },
  });
  await recordAudit(db, {
    actor: systemActor(account.id, "admin:create"),
    action: "admin_user.create",
    targetType: "admin_user",
    targetId: user.id,
    metadata: { email: args.email, roles: ["owner"], via: "cli" },
  });
  return { accountId: account.id, userId: user.id, newAccount };
}
