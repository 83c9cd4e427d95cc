/**
 * A reader's notification choices (docs/engagement.md "Notifications to readers"): per kind,
 * off, at once or in the daily digest. The reader is the JWT's member; reading never creates one,
 * a change does (the reader chose before they commented). No row: every kind at once.
 * Turning a kind off, or on again from off, is a consent withdrawn or given: a consent record
 * (server/privacy/consent) with the settings' wording, in the transaction of the change.
 */
import "server-only";

import type { ApiUser } from "../../auth/api-auth";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { ReaderNotificationChoice, ReaderNotificationPrefs } from "../../generated/prisma/client";
import { findJwtMember, findOrCreateJwtMember } from "../../members/identities";
import { recordConsent } from "../../privacy/consent/consent";
import { notificationPurpose, type TConsentChannel } from "../../privacy/consent/consent.schema";
import { notificationWording } from "../../privacy/consent/wording";
import type { TNotificationPrefsWire, TPrefsAnswer } from "./preferences.schema";
import { DEFAULT_PREFS, recipientAddress, type TNotificationKind, type TNotificationPrefs } from "./rules";
import type { TUnsubscribeKind } from "./token";

const TO_DB = { off: "OFF", immediate: "IMMEDIATE", digest: "DIGEST" } as const;
const FROM_DB = { OFF: "off", IMMEDIATE: "immediate", DIGEST: "digest" } as const;

/** A stored row as the rules read it (no row: the defaults). */
export function prefsOf(row: Pick<ReaderNotificationPrefs, TNotificationKind> | null | undefined): TNotificationPrefs {
  if (!row) return { ...DEFAULT_PREFS };
  return { replies: FROM_DB[row.replies], mentions: FROM_DB[row.mentions], decisions: FROM_DB[row.decisions] };
}

function toDb(prefs: Partial<TNotificationPrefsWire>): Partial<Record<TNotificationKind, ReaderNotificationChoice>> {
  const data: Partial<Record<TNotificationKind, ReaderNotificationChoice>> = {};
  for (const [kind, choice] of Object.entries(prefs) as [TNotificationKind, keyof typeof TO_DB][]) {
    data[kind] = TO_DB[choice];
  }
  return data;
}

/**
 * Write some kinds' choices of a member (the others kept), and their time zone when given.
 * `channel`: how the reader changed them (consent records; default "api").
 */
export async function setPrefs(
  db: Db,
  args: Omit<PrefsChange, "channel"> & { channel?: TConsentChannel },
): Promise<TNotificationPrefs> {
  return prefsOf(await writePrefs(db, { channel: "api", ...args }));
}

/** Some kinds' choices of a member, written through `channel`. */
type PrefsChange = {
  memberId: number;
  prefs: Partial<TNotificationPrefsWire>;
  timeZone?: string;
  now: Date;
  channel: TConsentChannel;
};

async function writePrefs(db: Db, args: PrefsChange) {
  const data = { ...toDb(args.prefs), ...(args.timeZone ? { timeZone: args.timeZone } : {}) };
  return withTransaction(db, async (tx) => {
    const before = prefsOf(await tx.readerNotificationPrefs.findUnique({ where: { memberId: args.memberId } }));
    const row = await tx.readerNotificationPrefs.upsert({
      where: { memberId: args.memberId },
      create: { memberId: args.memberId, ...data, updatedAt: args.now },
      update: { ...data, updatedAt: args.now },
    });
    const after = prefsOf(row);
    const { accountId } = await tx.member.findUniqueOrThrow({
      where: { id: args.memberId },
      select: { accountId: true },
    });
    for (const kind of ["replies", "mentions", "decisions"] as const) {
      const given = after[kind] !== "off";
      if ((before[kind] !== "off") === given) continue;
      const base = { accountId, memberId: args.memberId, kind };
      await recordConsent(tx, {
        ...base,
        purpose: notificationPurpose(kind),
        given,
        channel: args.channel,
        // Turned off from a mail's link: no wording was agreed to.
        wording:
          args.channel === "unsubscribe_link" ? null : await notificationWording(tx, { ...base, choice: after[kind] }),
        now: args.now,
      });
    }
    return row;
  });
}

/** The JWT reader's choices. */
export async function readerPrefs(db: Db, args: { accountId: number; user: ApiUser }): Promise<TPrefsAnswer> {
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.user.id });
  const row = member ? await db.readerNotificationPrefs.findUnique({ where: { memberId: member.id } }) : null;
  const address = member
    ? recipientAddress(member)
    : recipientAddress({ email: "", emailVerified: false, communicationEmail: args.user.email, source: "publisher" });
  return { preferences: prefsOf(row), email_on_file: address !== null, time_zone: row?.timeZone ?? null };
}

/**
 * Change the JWT reader's choices and, when given, their time zone (the reader is found or
 * created, as for a comment). A digest already due keeps its hour; the next one is on the new zone.
 */
export async function updateReaderPrefs(
  db: Db,
  args: {
    accountId: number;
    user: ApiUser;
    prefs: Partial<TNotificationPrefsWire>;
    timeZone?: string;
    now: Date;
  },
): Promise<TPrefsAnswer> {
  const member = await findOrCreateJwtMember(db, { accountId: args.accountId, user: args.user, now: args.now });
  const row = await writePrefs(db, {
    memberId: member.id,
    prefs: args.prefs,
    timeZone: args.timeZone,
    now: args.now,
    channel: "widget",
  });
  return {
    preferences: prefsOf(row),
    email_on_file: recipientAddress(member) !== null,
    time_zone: row.timeZone ?? null,
  };
}

/** Turn one kind (or all) off: what a one-click unsubscribe does. */
export function unsubscribeChange(kind: TUnsubscribeKind): Partial<TNotificationPrefsWire> {
  return kind === "all" ? { replies: "off", mentions: "off", decisions: "off" } : { [kind]: "off" };
}
