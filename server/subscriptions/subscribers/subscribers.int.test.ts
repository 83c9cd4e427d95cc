/** resolveSubscriber and the Subscriber shape: one person, one record (docs/subscriptions.md). */
import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { findOrCreateJwtMember } from "../../members/identities";
import { logInMember, signUpMember } from "../../members/members";
import type { Publisher } from "../../publishing/publisher";
import { createTestPublisher } from "../../testing/publishing-factories";
import {
  addSubscriberIdentity,
  listSubscriberIdentities,
  loadSubscriber,
  resolveSubscriber,
  setSubscriberMetadata,
} from "./subscribers";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  return { db, accountId: account.id, publisher: { accountId: account.id } as Publisher };
}

describe("resolveSubscriber", () => {
  it("finds a password member by its e-mail in any case: the e-mail identity IS the member", async () => {
    const { db, accountId, publisher } = await setup();
    const { member } = await signUpMember(db, {
      publisher,
      input: { name: "Ada", email: "ada@example.com", password: "correct horse battery", "dont-login": true },
      now: new Date(),
    });
    const found = await resolveSubscriber(db, { accountId, provider: "email", identity: " ADA@Example.com " });
    expect(found?.id).toBe(member.id);
    const made = await resolveSubscriber(db, {
      accountId,
      provider: "email",
      identity: "ada@example.com",
      create: true,
    });
    expect(made?.id).toBe(member.id);
    // Adding identities to it keeps its sign-in intact.
    await addSubscriberIdentity(db, {
      accountId,
      at: { provider: "email", identity: "ada@example.com" },
      add: { provider: "platform", value: "p-9" },
      now: new Date(),
    });
    const login = await logInMember(db, {
      publisher,
      input: { email: "ada@example.com", password: "correct horse battery" },
      ip: "127.0.0.1",
      now: new Date(),
    });
    expect(login.member.id).toBe(member.id);
  });

  it("returns null without create, uses the alternate identity, and creates at the primary one", async () => {
    const { db, accountId } = await setup();
    expect(await resolveSubscriber(db, { accountId, provider: "platform", identity: "a" })).toBeNull();
    const created = await resolveSubscriber(db, { accountId, provider: "platform", identity: "a", create: true });
    const viaAlt = await resolveSubscriber(db, {
      accountId,
      provider: "email",
      identity: "nobody@example.com",
      alternate_provider: "platform",
      alternate_identity: "a",
    });
    expect(viaAlt?.id).toBe(created?.id);
    expect(await listSubscriberIdentities(db, created!)).toEqual([{ provider: "platform", value: "a" }]);
  });

  it("creates one subscriber for parallel first calls", async () => {
    const { db, accountId } = await setup();
    const made = await Promise.all(
      Array.from({ length: 4 }, () =>
        resolveSubscriber(db, { accountId, provider: "email", identity: "race@example.com", create: true }),
      ),
    );
    expect(new Set(made.map((m) => m?.id)).size).toBe(1);
  });

  it("never lets a JWT claim take a password member's e-mail; the back end links them explicitly", async () => {
    const { db, accountId, publisher } = await setup();
    const { member } = await signUpMember(db, {
      publisher,
      input: { name: "Bo", email: "bo@example.com", password: "correct horse battery", "dont-login": true },
      now: new Date(),
    });
    const user = { id: "bo-1", name: "Bo", email: "bo@example.com", avatarUrl: null, provider: null };
    const reader = await findOrCreateJwtMember(db, { accountId, user, now: new Date(), linkProviderClaim: true });
    expect(reader.id).not.toBe(member.id);
    expect((await resolveSubscriber(db, { accountId, provider: "email", identity: "bo@example.com" }))?.id).toBe(
      member.id,
    );
    // The JWT reader cannot be given that e-mail: another subscriber holds it.
    await expect(
      addSubscriberIdentity(db, {
        accountId,
        at: { provider: "publisher", identity: "bo-1" },
        add: { provider: "email", value: "bo@example.com" },
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("links a JWT reader to a subscriber the back end created first under the claimed provider", async () => {
    const { db, accountId } = await setup();
    await addSubscriberIdentity(db, {
      accountId,
      at: { provider: "wordpress", identity: "5" },
      add: { provider: "email", value: "cy@example.com" },
      now: new Date(),
    });
    const user = { id: "5", name: "Cy", email: null, avatarUrl: null, provider: "WordPress" };
    const reader = await findOrCreateJwtMember(db, { accountId, user, now: new Date(), linkProviderClaim: true });
    expect((await resolveSubscriber(db, { accountId, provider: "email", identity: "cy@example.com" }))?.id).toBe(
      reader.id,
    );
    // Engagement (no linkProviderClaim) finds the same reader by its publisher id.
    const again = await findOrCreateJwtMember(db, { accountId, user, now: new Date() });
    expect(again.id).toBe(reader.id);
  });
});

describe("a subscriber's further e-mails", () => {
  it("are its own: a sign-up with one is refused as taken, and a lookup by one finds the subscriber", async () => {
    const { db, accountId, publisher } = await setup();
    const now = new Date();
    const { member } = await signUpMember(db, {
      publisher,
      input: { name: "Ada", email: "ada@example.com", password: "correct horse battery", "dont-login": true },
      now,
    });
    await addSubscriberIdentity(db, {
      accountId,
      at: { provider: "email", identity: "ada@example.com" },
      add: { provider: "email", value: "Ada@Work.example" },
      now,
    });
    expect((await resolveSubscriber(db, { accountId, provider: "email", identity: "ADA@work.example" }))?.id).toBe(
      member.id,
    );
    await expect(
      signUpMember(db, {
        publisher,
        input: { name: "Not Ada", email: "ada@work.example", password: "correct horse battery", "dont-login": true },
        now,
      }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "A member with this e-mail already exists." });
    expect(await db.member.count({ where: { accountId } })).toBe(1);
  });
});

describe("loadSubscriber", () => {
  it("answers the spec's Subscriber shape, and nothing for another account's member", async () => {
    const { db, accountId } = await setup();
    const other = await setup();
    const member = (await resolveSubscriber(db, {
      accountId,
      provider: "email",
      identity: "dee@example.com",
      create: true,
    }))!;
    expect((await loadSubscriber(db, accountId, member.id))?.metadata).toBeNull();
    await setSubscriberMetadata(db, { memberId: member.id, input: { phone_number: "+14155550123" }, mode: "merge" });
    expect(await loadSubscriber(db, accountId, member.id)).toEqual({
      id: member.id,
      name: "dee",
      created_at: member.createdAt.toISOString(),
      updated_at: expect.any(String) as string,
      metadata: { address: null, phone_number: "+14155550123", other: null },
      cumulative_end_timestamps: {
        standard_subscriptions_cumulative_end_timestamp: null,
        campaign_subscriptions_cumulative_end_timestamp: null,
      },
      subscriber_identities: [{ provider: "email", value: "dee@example.com" }],
    });
    expect(await loadSubscriber(db, other.accountId, member.id)).toBeNull();
  });
});
