import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { findOrCreateJwtMember } from "../../members/identities";
import { addSubscriberIdentity, setSubscriberMetadata } from "../../subscriptions/subscribers/subscribers";
import { createTestTeam, trpcCodeOf } from "../../testing/staff";

describe("subscribers router", () => {
  // Registered through the server API, never subscribed: listed among all members.
  it("searches by e-mail, name or identity and opens one, for revenue staff of the account only", async () => {
    const db = await getDb();
    const { revenue, editor } = await createTestTeam(db, "subs", { revenue: ["REVENUE"], editor: ["EDITOR"] });
    const other = await createTestTeam(db, "subs-other", { revenue: ["REVENUE"] });
    const accountId = revenue.account.id;
    await addSubscriberIdentity(db, {
      accountId,
      at: { provider: "email", identity: "ada@example.com" },
      add: { provider: "platform", value: "plat-123" },
      now: new Date(),
    });
    await addSubscriberIdentity(db, {
      accountId,
      at: { provider: "email", identity: "bo@example.com" },
      add: { provider: "phone", value: "+14155550123" },
      now: new Date(),
    });
    const byEmail = await revenue.caller.subscribers.search({ q: "ADA@", who: "all" });
    expect(byEmail.map((s) => s.subscriber_identities[0]?.value)).toEqual(["ada@example.com"]);
    const byIdentity = await revenue.caller.subscribers.search({ q: "plat-12", who: "all" });
    expect(byIdentity).toHaveLength(1);
    expect((await revenue.caller.subscribers.search({ who: "all" })).length).toBeGreaterThanOrEqual(2);
    await setSubscriberMetadata(db, {
      memberId: byIdentity[0]!.id,
      input: { phone_number: "+919876543210" },
      mode: "merge",
    });
    const one = await revenue.caller.subscribers.get({ id: byIdentity[0]!.id });
    expect(one.metadata?.phone_number).toBe("+919876543210");
    expect(one.subscriber_identities).toEqual([
      { provider: "email", value: "ada@example.com" },
      { provider: "platform", value: "plat-123" },
    ]);
    expect(await trpcCodeOf(other.revenue.caller.subscribers.get({ id: one.id }))).toBe("NOT_FOUND");
    expect(await other.revenue.caller.subscribers.search({ q: "ada@", who: "all" })).toEqual([]);
    expect(await trpcCodeOf(editor.caller.subscribers.search({ q: "" }))).toBe("FORBIDDEN");
  });

  it("shows staff the e-mail a publisher JWT gave for a reader known only by it, never the placeholder", async () => {
    const db = await getDb();
    const { revenue } = await createTestTeam(db, "subs-jwt", { revenue: ["REVENUE"] });
    const accountId = revenue.account.id;
    const now = new Date();
    await findOrCreateJwtMember(db, {
      accountId,
      user: { id: "jwt-ada-7", name: "Ada JWT", email: "Ada.JWT@Example.com", avatarUrl: null, provider: null },
      now,
    });
    await findOrCreateJwtMember(db, {
      accountId,
      user: { id: "jwt-no-mail-8", name: "No Mail", email: null, avatarUrl: null, provider: null },
      now,
    });
    const rows = await revenue.caller.subscribers.search({ who: "all" });
    const ada = rows.find((r) => r.name === "Ada JWT");
    const noMail = rows.find((r) => r.name === "No Mail");
    expect(ada).toMatchObject({ email: "ada.jwt@example.com" });
    expect(ada?.subscriber_identities).toEqual([{ provider: "publisher", value: "jwt-ada-7" }]);
    expect(noMail).toMatchObject({ email: null });
    expect(noMail?.subscriber_identities).toEqual([{ provider: "publisher", value: "jwt-no-mail-8" }]);
    for (const row of rows) expect(row.email ?? "").not.toMatch(/identities\.invalid/);
  });
});
