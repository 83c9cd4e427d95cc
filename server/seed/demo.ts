/**
 * The demo publisher: an account with well-known keys and one admin user per role, so a newcomer
 * can sign in and call every API at once. Idempotent: a second run finds everything in place and
 * changes nothing (existing rows are never rewritten, so edits made in the dashboard survive).
 *
 * These credentials are public (README). Never run this against production data: the seed
 * script refuses when NODE_ENV=production unless ALLOW_DEMO_SEED=true.
 */
import { createApiKey, hashApiKey } from "../auth/api-keys";
import { hashPassword } from "../auth/password";
import type { Db } from "../db/client";
import type { AdminRole } from "../generated/prisma/client";

type DemoUser = { email: string; password: string; name: string; roles: AdminRole[] };

const DEMO_OWNER: DemoUser = {
  email: "owner@demo.masthead.test",
  password: "masthead-demo-owner",
  name: "Olivia Owner",
  roles: ["OWNER"],
};

export const DEMO = {
  account: { slug: "demo", name: "The Daily Masthead (demo)", domain: "localhost" },
  accountKey: "mh_pk_demo_public_client_key_local_only",
  subauthKey: "mh_sk_demo_server_key_local_only_0000",
  jwtSecret: "masthead-demo-jwt-secret-local-development-only",
  owner: DEMO_OWNER,
  users: [
    DEMO_OWNER,
    { email: "editor@demo.masthead.test", password: "masthead-demo-editor", name: "Eddie Editor", roles: ["EDITOR"] },
    {
      email: "moderator@demo.masthead.test",
      password: "masthead-demo-moderator",
      name: "Mo Moderator",
      roles: ["MODERATOR"],
    },
    {
      email: "revenue@demo.masthead.test",
      password: "masthead-demo-revenue",
      name: "Rhea Revenue",
      roles: ["REVENUE"],
    },
  ] satisfies DemoUser[],
};

export type DemoCredentials = {
  accountId: number;
  accountSlug: string;
  accountKey: string;
  subauthKey: string;
  jwtSecret: string;
  admin: { email: string; password: string };
  users: { email: string; password: string; name: string; roles: AdminRole[] }[];
  baseUrl: string;
  /** Where to look at the demo content (server/seed/demo-content.ts), when it was seeded. */
  content?: {
    rss: string;
    instantArticles: string;
    ampStory: string;
    homeCollection: string;
    publishedStories: number;
    draftSlugs: string[];
  };
};

export type SeedReport = { created: string[] };

/** Create whatever of the demo publisher is missing. Returns what it created (empty on a re-run). */
export async function seedDemoPublisher(db: Db, report: SeedReport = { created: [] }): Promise<number> {
  let account = await db.account.findUnique({ where: { slug: DEMO.account.slug } });
  if (!account) {
    account = await db.account.create({ data: { ...DEMO.account, jwtSecret: DEMO.jwtSecret } });
    report.created.push(`account ${account.id} (${account.slug})`);
  }
  const keys = [
    { kind: "CLIENT" as const, key: DEMO.accountKey, name: "Demo client key" },
    { kind: "SERVER" as const, key: DEMO.subauthKey, name: "Demo server key (X-SUBAUTH)" },
  ];
  for (const key of keys) {
    const existing = await db.apiKey.findUnique({ where: { hash: hashApiKey(key.key) } });
    if (!existing) {
      await createApiKey(db, { accountId: account.id, ...key });
      report.created.push(`${key.kind.toLowerCase()} key`);
    }
  }
  for (const user of DEMO.users) {
    const existing = await db.adminUser.findUnique({ where: { email: user.email } });
    if (!existing) {
      await db.adminUser.create({
        data: {
          accountId: account.id,
          email: user.email,
          name: user.name,
          roles: [...user.roles],
          passwordHash: await hashPassword(user.password),
        },
      });
      report.created.push(`admin ${user.email}`);
    }
  }
  return account.id;
}

export function demoCredentials(accountId: number, baseUrl: string): DemoCredentials {
  const owner = DEMO.owner;
  return {
    accountId,
    accountSlug: DEMO.account.slug,
    accountKey: DEMO.accountKey,
    subauthKey: DEMO.subauthKey,
    jwtSecret: DEMO.jwtSecret,
    admin: { email: owner.email, password: owner.password },
    users: DEMO.users.map((u) => ({ ...u, roles: [...u.roles] })),
    baseUrl,
  };
}
