/**
 * Dashboard staff for integration tests: an admin user with the given roles on an account, the
 * session the dashboard would give them, and a tRPC caller acting as them.
 *
 *   const { caller, user, account } = await createTestStaff(db, { roles: ["EDITOR"] });
 *   const other = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
 *   expect(await trpcCodeOf(other.caller.organise.sections.list())).toBe("FORBIDDEN");
 */
import { staffActor, type StaffActor } from "../auth/actor";
import type { AdminSession } from "../auth/admin-session";
import type { AdminRole } from "../auth/roles";
import type { Db } from "../db/client";
import { createCaller } from "../trpc/root";
import { createTestPublisher } from "./publishing-factories";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

type TestStaffOptions = {
  roles: AdminRole[];
  /**
   * The account: an existing one's id, or a slug (the account with that slug, created on first
   * use, so two calls with one slug share it). A new account when not given.
   */
  account?: number | string;
  name?: string;
  /** Unique per call when not given. */
  email?: string;
};

/** An admin user (and, when needed, their account) with their session and tRPC caller. */
export async function createTestStaff(db: Db, options: TestStaffOptions) {
  const { roles } = options;
  const slug = typeof options.account === "string" ? options.account : `staff-${unique()}`;
  const account =
    typeof options.account === "number"
      ? await db.account.findUniqueOrThrow({ where: { id: options.account } })
      : await db.account.upsert({
          where: { slug },
          update: {},
          create: { slug, name: options.account ?? "The Test Gazette", jwtSecret: "x".repeat(32) },
        });
  const user = await db.adminUser.create({
    data: {
      accountId: account.id,
      email: options.email ?? `${roles.join("-").toLowerCase()}-${unique()}@${account.slug}.test`,
      name: options.name ?? "Staff Member",
      roles,
      passwordHash: "unused",
    },
  });
  const session: AdminSession = {
    user: { id: user.id, name: user.name, email: user.email, accountId: account.id, accountName: account.name, roles },
  };
  return { account, user, session, caller: createCaller({ db, session }) };
}

/** A caller with no session: what a signed-out visitor's requests get. */
export function createAnonymousCaller(db: Db) {
  return createCaller({ db, session: null });
}

/**
 * How a tRPC call ended: "OK", or the code of the TRPCError it threw (FORBIDDEN, CONFLICT …).
 * Anything else is rethrown. (Recognised by name: server/testing may not import @trpc/server.)
 */
export async function trpcCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error && error.name === "TRPCError" && "code" in error && typeof error.code === "string")
      return error.code;
    throw error;
  }
  return "OK";
}

export type TestStaff = Awaited<ReturnType<typeof createTestStaff>>;

/**
 * Several staff on one account (by slug), one per key, each named after its key and addressed
 * `<key>@<slug>.test`: `const { owner, moderator } = await createTestTeam(db, "alpha", { owner: ["OWNER"], moderator: ["MODERATOR"] })`.
 */
export async function createTestTeam<K extends string>(
  db: Db,
  slug: string,
  members: Record<K, AdminRole[]>,
): Promise<Record<K, TestStaff>> {
  const team = {} as Record<K, TestStaff>;
  for (const key of Object.keys(members) as K[])
    team[key] = await createTestStaff(db, {
      account: slug,
      roles: members[key],
      name: key,
      email: `${key}@${slug}.test`,
    });
  return team;
}

/** A new publisher's moderation desk: its moderator "Mo" and its owner "Olive". */
export async function createModerationDesk(db: Db) {
  const account = await createTestPublisher(db);
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Mo" });
  const owner = await createTestStaff(db, { account: account.id, roles: ["OWNER"], name: "Olive" });
  return { db, account, moderator, owner };
}

/**
 * An editor (role EDITOR) on an existing account, as the actor services take: for service tests
 * that need no session or caller.
 */
export async function insertEditor(db: Db, accountId: number, options: { name?: string } = {}): Promise<StaffActor> {
  const user = await db.adminUser.create({
    data: {
      accountId,
      email: `editor@account-${accountId}-${unique()}.test`,
      name: options.name ?? "Eddie Editor",
      roles: ["EDITOR"],
      passwordHash: "unused",
    },
  });
  return staffActor(user);
}
