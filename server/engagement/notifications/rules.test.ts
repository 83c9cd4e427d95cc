import { describe, expect, it } from "vitest";

import {
  DEFAULT_PREFS,
  deliveryFor,
  eventsOf,
  groupDigest,
  heldDecision,
  nextDigestAt,
  recipientAddress,
  type TCommentFacts,
  type TRecipientFacts,
} from "./rules";

const reply: TCommentFacts = {
  id: 10,
  authorId: 1,
  visible: true,
  moderationState: "UNDECIDED",
  deleted: false,
  guest: false,
  parentAuthorId: 2,
  mentionedIds: [3, 2],
};

const reader = (memberId: number, over: Partial<TRecipientFacts> = {}): TRecipientFacts => ({
  memberId,
  address: `r${memberId}@example.com`,
  banned: false,
  prefs: { ...DEFAULT_PREFS },
  timeZone: "UTC",
  ...over,
});

describe("eventsOf", () => {
  it("a visible reply tells the parent's author once (as a reply, not also a mention) and each other mentioned reader", () => {
    expect(eventsOf(reply, {})).toEqual([
      { kind: "replies", memberId: 2, commentId: 10, eventKey: "reply:10" },
      { kind: "mentions", memberId: 3, commentId: 10, eventKey: "mention:10" },
    ]);
  });

  it("a held comment tells nobody until it is published; a decision tells its author", () => {
    expect(eventsOf({ ...reply, visible: false }, {})).toEqual([]);
    expect(eventsOf({ ...reply, visible: false, moderationState: "REJECTED" }, { decision: "rejected" })).toEqual([
      { kind: "decisions", memberId: 1, commentId: 10, eventKey: "decision:10:rejected", decision: "rejected" },
    ]);
    expect(
      eventsOf({ ...reply, moderationState: "APPROVED" }, { decision: "approved" }).map((e) => e.eventKey),
    ).toEqual(["decision:10:approved", "reply:10", "mention:10"]);
  });
});

describe("deliveryFor", () => {
  const [toParent] = eventsOf(reply, {});
  it("tells at once by default, or in the digest, or not at all, as the reader chose", () => {
    expect(deliveryFor(toParent!, reply, reader(2))).toBe("immediate");
    expect(deliveryFor(toParent!, reply, reader(2, { prefs: { ...DEFAULT_PREFS, replies: "digest" } }))).toBe("digest");
    expect(deliveryFor(toParent!, reply, reader(2, { prefs: { ...DEFAULT_PREFS, replies: "off" } }))).toBeNull();
  });

  it("never tells a banned reader, one without an address, nor about a comment no longer visible", () => {
    expect(deliveryFor(toParent!, reply, reader(2, { banned: true }))).toBeNull();
    expect(deliveryFor(toParent!, reply, reader(2, { address: null }))).toBeNull();
    expect(deliveryFor(toParent!, { ...reply, visible: false }, reader(2))).toBeNull();
    expect(deliveryFor(toParent!, reply, undefined)).toBeNull();
  });

  it("tells a mention only while the body still mentions the reader; a reply whatever the body mentions", () => {
    const [, toMentioned] = eventsOf(reply, {});
    expect(deliveryFor(toMentioned!, reply, reader(3))).toBe("immediate");
    const editedOut = { ...reply, mentionedIds: [2] };
    expect(deliveryFor(toMentioned!, editedOut, reader(3))).toBeNull();
    expect(deliveryFor(toParent!, { ...reply, mentionedIds: [] }, reader(2))).toBe("immediate");
  });

  it("never tells a reader about their own reply or mention", () => {
    const own = { ...reply, parentAuthorId: 1, mentionedIds: [1] };
    const events = eventsOf(own, {});
    expect(events.map((e) => deliveryFor(e, own, reader(1)))).toEqual([null]);
  });

  it("a rejection is told while the comment stays rejected; an approval while it is visible", () => {
    const rejected = { ...reply, visible: false, moderationState: "REJECTED" as const };
    const [event] = eventsOf(rejected, { decision: "rejected" });
    expect(deliveryFor(event!, rejected, reader(1))).toBe("immediate");
    expect(deliveryFor(event!, { ...rejected, moderationState: "APPROVED", visible: true }, reader(1))).toBeNull();
    expect(deliveryFor(event!, { ...rejected, deleted: true }, reader(1))).toBeNull();
    expect(deliveryFor(event!, { ...rejected, guest: true }, reader(1))).toBeNull();
  });
});

describe("heldDecision", () => {
  const held = { isPublished: false, moderationState: "UNDECIDED" as const, deletedAt: null };
  it("approving or rejecting a held comment is a decision; anything else is not", () => {
    expect(heldDecision(held, { isPublished: true, moderationState: "APPROVED", deletedAt: null })).toBe("approved");
    expect(heldDecision(held, { isPublished: false, moderationState: "REJECTED", deletedAt: null })).toBe("rejected");
    expect(heldDecision(held, { isPublished: false, moderationState: "SPAM", deletedAt: null })).toBeUndefined();
    expect(heldDecision(held, { ...held, deletedAt: new Date() })).toBeUndefined();
    expect(
      heldDecision(
        { isPublished: true, moderationState: "UNDECIDED", deletedAt: null },
        { isPublished: false, moderationState: "REJECTED", deletedAt: null },
      ),
    ).toBeUndefined();
  });
});

describe("recipientAddress", () => {
  const member = { email: "ada@example.com", emailVerified: true, communicationEmail: null, source: "email" };
  it("a verified sign-in e-mail, or the publisher's JWT e-mail; never a placeholder or an unverified one", () => {
    expect(recipientAddress(member)).toBe("ada@example.com");
    expect(recipientAddress({ ...member, emailVerified: false })).toBeNull();
    expect(
      recipientAddress({
        email: "jwt-x@identities.invalid",
        emailVerified: false,
        communicationEmail: "bo@example.com",
        source: "publisher",
      }),
    ).toBe("bo@example.com");
    expect(
      recipientAddress({
        email: "x@identities.invalid",
        emailVerified: true,
        communicationEmail: null,
        source: "publisher",
      }),
    ).toBeNull();
    expect(
      recipientAddress({ email: "x@a.invalid", emailVerified: false, communicationEmail: "c@d.com", source: "social" }),
    ).toBeNull();
  });
});

describe("digest", () => {
  it("goes out at the next 07:00 UTC", () => {
    expect(nextDigestAt(new Date("2026-11-26T06:59:59Z")).toISOString()).toBe("2026-11-26T07:00:00.000Z");
    expect(nextDigestAt(new Date("2026-11-26T07:00:00Z")).toISOString()).toBe("2026-11-27T07:00:00.000Z");
    expect(nextDigestAt(new Date("2026-12-31T23:00:00Z")).toISOString()).toBe("2027-01-01T07:00:00.000Z");
  });

  it("is 07:00 on the reader's own clocks, in their zone (an unknown zone: UTC)", () => {
    // Madrid is UTC+1 in November: 07:00 there is 06:00 UTC.
    expect(nextDigestAt(new Date("2026-11-26T05:59:59Z"), "Europe/Madrid").toISOString()).toBe(
      "2026-11-26T06:00:00.000Z",
    );
    expect(nextDigestAt(new Date("2026-11-26T06:00:00Z"), "Europe/Madrid").toISOString()).toBe(
      "2026-11-27T06:00:00.000Z",
    );
    // Late evening in Los Angeles is the next day in UTC: the digest is the next Los Angeles morning.
    expect(nextDigestAt(new Date("2026-11-26T06:00:00Z"), "America/Los_Angeles").toISOString()).toBe(
      "2026-11-26T15:00:00.000Z",
    );
    expect(nextDigestAt(new Date("2026-11-26T16:00:00Z"), "America/Los_Angeles").toISOString()).toBe(
      "2026-11-27T15:00:00.000Z",
    );
    // Kolkata is UTC+5:30; Tokyo's morning is the evening before in UTC.
    expect(nextDigestAt(new Date("2026-11-26T00:00:00Z"), "Asia/Kolkata").toISOString()).toBe(
      "2026-11-26T01:30:00.000Z",
    );
    expect(nextDigestAt(new Date("2026-11-26T00:00:00Z"), "Asia/Tokyo").toISOString()).toBe("2026-11-26T22:00:00.000Z");
    // Across New York's spring clock change: the day after, 07:00 EDT is 11:00 UTC.
    expect(nextDigestAt(new Date("2026-03-08T10:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-03-08T11:00:00.000Z",
    );
    expect(nextDigestAt(new Date("2026-11-26T06:00:00Z"), "Not/AZone").toISOString()).toBe("2026-11-26T07:00:00.000Z");
  });

  it("groups items by kind (replies, mentions, decisions), oldest first within each, empty kinds left out", () => {
    const at = (m: number) => new Date(Date.UTC(2026, 10, 26, 8, m));
    const items = [
      { id: 3n, kind: "decisions" as const, createdAt: at(1) },
      { id: 2n, kind: "replies" as const, createdAt: at(5) },
      { id: 1n, kind: "replies" as const, createdAt: at(2) },
    ];
    expect(groupDigest(items).map((g) => [g.kind, g.items.map((i) => i.id)])).toEqual([
      ["replies", [1n, 2n]],
      ["decisions", [3n]],
    ]);
    expect(groupDigest([])).toEqual([]);
  });
});
