/**
 * Erasure and the other privacy parts, on PGlite and PostgreSQL: a reader's data export (its row
 * and its archive), their consent records, and the illegal-content notice they sent and the one
 * about their comment leave no trace of them; the notices themselves stay, for the transparency
 * report's counts.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { recordingStorage, seedReader, tracesOf } from "@/server/testing/erasure";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { requestErasure } from "./requests";
import { runErasure } from "./run";

beforeEach(() => forgetPublisherCache());

describe("erasure and the privacy parts", () => {
  it("deletes the reader's exports and consent records, and strips them from notices that stay", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
    const actor = staffActor({ ...owner.user, accountId: account.id, roles: ["OWNER"] });
    const reader = await seedReader(db, account.id);
    const memberId = reader.member.id;
    const storageKey = `${account.id}/exports/${reader.tag}.zip`;
    await db.memberDataExport.create({
      data: { accountId: account.id, memberId, requestedBy: "reader", mailReader: true, locale: "en", storageKey },
    });
    const text = await db.consentText.create({ data: { sha256: `sha-${reader.tag}`, text: "Send me the news." } });
    await db.consentRecord.create({
      data: {
        accountId: account.id,
        memberId,
        purpose: "notification:replies",
        given: true,
        channel: "widget",
        textId: text.id,
        occurredAt: new Date(),
      },
    });
    const sent = await db.dsaNotice.create({
      data: {
        accountId: account.id,
        commentId: reader.comments.othersTop.id,
        authorMemberId: reader.other.id,
        category: "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH",
        lawOrReason: "Defamation law",
        notifierMemberId: memberId,
        notifierName: reader.name,
        notifierEmail: reader.email,
        goodFaith: true,
      },
    });
    const about = await db.dsaNotice.create({
      data: {
        accountId: account.id,
        commentId: reader.comments.lone.id,
        authorMemberId: memberId,
        category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
        lawOrReason: "A scam",
        notifierEmail: "someone@example.org",
        goodFaith: true,
      },
    });

    await requestErasure(db, { accountId: account.id, memberId, actor, now: new Date() });
    const request = await db.erasureRequest.findUniqueOrThrow({ where: { memberId } });
    const storage = recordingStorage();
    await runErasure(db, { requestId: request.id, commentsRule: "keep", now: new Date(), storage });

    expect(await tracesOf(db, reader.needles)).toEqual([]);
    expect(await db.memberDataExport.count({ where: { memberId } })).toBe(0);
    expect(storage.deleted).toContain(storageKey);
    expect(await db.consentRecord.count({ where: { memberId } })).toBe(0);
    expect(await db.dsaNotice.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({
      notifierMemberId: null,
      notifierName: null,
      notifierEmail: null,
      category: "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH",
    });
    expect(await db.dsaNotice.findUniqueOrThrow({ where: { id: about.id } })).toMatchObject({
      authorMemberId: null,
      notifierEmail: "someone@example.org",
    });
  });
});
