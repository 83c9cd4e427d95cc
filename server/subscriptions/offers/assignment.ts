/**
 * Which arm of an A/B test a reader is in: fixed by reader, with no state. The first 32 bits of
 * SHA-256("<experiment id>:<reader key>") modulo 10 000 is the reader's bucket; buckets below
 * splitA × 100 are arm "a". The same reader key always gets the same arm of an experiment, and
 * different experiments split readers independently. A signed-in reader's key is their JWT id
 * ("u:<id>"), the same on every device; an anonymous reader's is the page's readerId ("r:<id>").
 */
import { createHash } from "node:crypto";

export type Arm = "a" | "b";

/** The reader's bucket, 0 to 9 999. */
export function bucketOf(experimentId: string, readerKey: string): number {
  const digest = createHash("sha256").update(`${experimentId}:${readerKey}`).digest();
  return digest.readUInt32BE(0) % 10_000;
}

/** Arm "a" for the first `splitA` percent of buckets, else "b". */
export function assignArm(experimentId: string, readerKey: string, splitA: number): Arm {
  return bucketOf(experimentId, readerKey) < splitA * 100 ? "a" : "b";
}

/** The reader key: the JWT's id when signed in, else the page's readerId; null: nobody to assign. */
export function readerKeyOf(jwtUserId: string | null, readerId: string | null): string | null {
  if (jwtUserId) return `u:${jwtUserId}`;
  if (readerId) return `r:${readerId}`;
  return null;
}
