/**
 * Which stories convert: the writes (docs/subscriptions.md "Which stories convert", decision
 * 0054). A denied access check is a wall hit of the reader on the story; a sign-up, a log-in, a
 * publisher-JWT check or a checkout that names the browser's reader id links it to the member.
 * Both are one statement that a repeat leaves as it is (unique keys), and each process skips the
 * statement for what it wrote in the last 30 minutes, so a reader reloading a paywalled page
 * costs the check nothing after its first hit.
 */
import "server-only";

import type { Db } from "../../db/client";
import { log } from "../../log";
import { findJwtMember } from "../../members/identities";

/** A hit's row moves its last moment on at most this often (and this process writes it at most this often). */
const REFRESH_MS = 30 * 60 * 1000;
/** Remembered writes per process; past this the memory starts again (a repeat is one harmless statement). */
const MEMORY_MAX = 100_000;

const written = new Map<string, number>();
function remember(key: string, until: number): void {
  if (written.size >= MEMORY_MAX) written.clear();
  written.set(key, until);
}
const fresh = (key: string, now: number) => (written.get(key) ?? 0) > now;

/** Forget what this process wrote (tests). */
export function forgetConversionWrites(): void {
  written.clear();
}

type Wall = "paid" | "registration";

/** The wall a denied grant names (`data.wall`, when the decision says which), else the paid one. */
function wallOf(grant: { data?: object | null }): Wall {
  const wall = (grant.data as { wall?: unknown } | null | undefined)?.wall;
  return wall === "registration" ? "registration" : "paid";
}

/**
 * The reader met the story's wall at `now`: one row per account, story, reader and UTC day
 * (first moment kept; last moment moved on when 30 minutes older). A failed write is logged and
 * never fails the access check that called it.
 */
export async function recordWallHit(
  db: Db,
  args: { accountId: number; storyId: string; readerId: string; wall: Wall; now: Date },
): Promise<void> {
  const at = args.now.getTime();
  const key = `h|${args.accountId}|${args.storyId}|${args.readerId}`;
  if (fresh(key, at)) return;
  remember(key, at + REFRESH_MS);
  const day = args.now.toISOString().slice(0, 10);
  try {
    await db.$executeRaw`
      INSERT INTO conversion_wall_hits (account_id, story_id, reader_id, wall, day, first_at, last_at)
      VALUES (${args.accountId}, ${args.storyId}::uuid, ${args.readerId}, ${args.wall}, ${day}::date,
        ${args.now}::timestamptz, ${args.now}::timestamptz)
      ON CONFLICT (account_id, story_id, reader_id, day) DO UPDATE SET last_at = excluded.last_at
      WHERE conversion_wall_hits.last_at < excluded.last_at - interval '30 minutes'`;
  } catch (error) {
    written.delete(key);
    log.warn("wall hit not recorded", { story: args.storyId, error: error instanceof Error ? error.message : error });
  }
}

export type LinkVia = "signup" | "login" | "social" | "jwt" | "session" | "checkout";

/**
 * The reader id belongs to the member (kept once: the first way it was learnt and when). A failed
 * write is logged and never fails the caller.
 */
export async function linkReader(
  db: Db,
  args: { accountId: number; readerId: string; memberId: number; via: LinkVia; now: Date },
): Promise<void> {
  const key = `l|${args.accountId}|${args.readerId}|${args.memberId}`;
  const at = args.now.getTime();
  if (fresh(key, at)) return;
  try {
    await db.$executeRaw`
      INSERT INTO conversion_reader_links (account_id, reader_id, member_id, via, linked_at)
      VALUES (${args.accountId}, ${args.readerId}, ${args.memberId}, ${args.via}, ${args.now}::timestamptz)
      ON CONFLICT (account_id, reader_id, member_id) DO NOTHING`;
    remember(key, Number.MAX_SAFE_INTEGER);
  } catch (error) {
    // The sign-up, log-in or purchase that asked has happened: a missing link loses one attribution, nothing more.
    log.warn("reader not linked", { via: args.via, error: error instanceof Error ? error.message : error });
  }
}

/**
 * A check or pingback with both the publisher's JWT and the reader id: link them once the JWT's
 * member exists (a member is made on sign-up, checkout or the first counted read). Asked again
 * after 10 minutes while the member does not exist yet; never fails the caller.
 */
async function linkJwtReader(
  db: Db,
  args: { accountId: number; readerId: string; userId: string; now: Date },
): Promise<void> {
  const key = `j|${args.accountId}|${args.readerId}|${args.userId}`;
  const at = args.now.getTime();
  if (fresh(key, at)) return;
  try {
    const member = await findJwtMember(db, { accountId: args.accountId, userId: args.userId });
    if (!member) return remember(key, at + 10 * 60 * 1000);
    await linkReader(db, {
      accountId: args.accountId,
      readerId: args.readerId,
      memberId: member.id,
      via: "jwt",
      now: args.now,
    });
    remember(key, Number.MAX_SAFE_INTEGER);
  } catch (error) {
    log.warn("reader not linked", { error: error instanceof Error ? error.message : error });
  }
}

/**
 * What an access check (web or AMP) or a pingback tells about conversions: a denied answer for a
 * named reader is a wall hit; a reader id beside a publisher JWT is linked to its member.
 */
export async function noteAccessCheck(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    readerId: string | null;
    userId: string | null;
    /** The member of a Masthead session the request carried (no JWT): linked as it is. */
    memberId?: number | null;
    grant: { granted: boolean; data?: object | null } | null;
    now: Date;
  },
): Promise<void> {
  if (!args.readerId) return;
  const sessionMember = args.memberId ?? null;
  const readerId = args.readerId;
  await Promise.all([
    args.grant && !args.grant.granted
      ? recordWallHit(db, {
          accountId: args.accountId,
          storyId: args.storyId.toLowerCase(),
          readerId,
          wall: wallOf(args.grant),
          now: args.now,
        })
      : null,
    args.userId ? linkJwtReader(db, { accountId: args.accountId, readerId, userId: args.userId, now: args.now }) : null,
    sessionMember !== null
      ? linkReader(db, { accountId: args.accountId, readerId, memberId: sessionMember, via: "session", now: args.now })
      : null,
  ]);
}
