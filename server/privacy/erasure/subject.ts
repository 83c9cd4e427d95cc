/**
 * Who an erasure is about, as each step gets it: the request, the member by id, the needles that
 * name them in logs (read from the member row and its identities when the run starts; the
 * identities and the row are the last steps to go, so a resumed run reads the same), the
 * account's comments rule, and the clock.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import type { ImageStorage } from "../../storage/image-storage";
import { needlesOf, type CommentsRule, type Needles } from "./rules";

export type ErasureSubject = {
  requestId: string;
  accountId: number;
  memberId: number;
  needles: Needles;
  commentsRule: CommentsRule;
  now: Date;
  /** Where a member's avatar file is kept (the member step deletes it). */
  storage: ImageStorage | null;
};

/**
 * One step of the table. `transaction`: `run` gets the transaction that also records the step as
 * done (its effect and its record commit together). `own`: the step talks to the outside world
 * (a gateway) and keeps its own transactions, each idempotent; the runner records it once it returned.
 */
export type ErasureStep =
  | { name: string; what: string; mode: "transaction"; run(tx: TransactionClient, s: ErasureSubject): Promise<void> }
  | { name: string; what: string; mode: "own"; run(db: Db, s: ErasureSubject): Promise<void> };

/** The reader's needles, from their member row and identities. */
export async function readNeedles(db: Db, memberId: number): Promise<Needles> {
  const member = await db.member.findUniqueOrThrow({
    where: { id: memberId },
    select: {
      email: true,
      communicationEmail: true,
      name: true,
      username: true,
      firstName: true,
      lastName: true,
      identities: { select: { email: true, provider: true, externalId: true } },
    },
  });
  return needlesOf({
    ...member,
    identityEmails: member.identities.flatMap((i) => [i.email, i.provider === "email" ? i.externalId : null]),
  });
}
