import { beforeEach, describe, expect, it } from "vitest";

import type { AdminRole } from "../../auth/roles";
import { getDb } from "../../db";
import { forgetPublisherCache } from "../../publishing/publisher";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { createTestPublisher, insertImageAsset, insertSection, textCards } from "../../testing/publishing-factories";
import { createAnonymousCaller, createTestStaff, trpcCodeOf } from "../../testing/staff";
import { fakeClock, startReceiver } from "../../testing/webhook-receiver";
import { verifyQtSignature } from "../../webhooks/signing";

beforeEach(() => forgetPublisherCache());

async function publisher() {
  return createTestPublisher(await getDb(), { siteUrl: "https://news.example.com" });
}

/** An admin user with `roles` on the account, and a caller acting as them. */
async function caller(accountId: number, roles: AdminRole[], name?: string) {
  const { caller: api, user } = await createTestStaff(await getDb(), { account: accountId, roles, name });
  return { api, user };
}

const codeOf = trpcCodeOf;

describe("stories router", () => {
  it("lets an editor write, submit, approve and publish; a subscribed webhook receives signed events with the section data", async () => {
    const account = await publisher();
    const db = await getDb();
    const parent = await insertSection(db, account.id, { name: "News", slug: "news" });
    const section = await insertSection(db, account.id, {
      name: "City",
      slug: "city",
      parentId: parent.id,
      withCollection: true,
    });
    const tram = await insertImageAsset(db, account.id);
    const receiver = await startReceiver();
    try {
      const { api: owner } = await caller(account.id, ["OWNER"], "Olive Owner");
      const { secret } = await owner.webhooks.create({
        kind: "CONTENT",
        url: receiver.url,
        events: ["story-submit", "story-approve", "story-publish"],
      });
      const { api: editor, user } = await caller(account.id, ["EDITOR"], "Eddie Editor");

      const options = await editor.stories.options();
      expect(options.sections).toEqual([
        { id: section.id, name: "City", parentId: parent.id },
        { id: parent.id, name: "News", parentId: null },
      ]);
      const created = await editor.stories.create({
        headline: "Tram line opens",
        sectionIds: [section.id],
        cards: textCards("The first tram left at six."),
        tags: [{ name: "Transport" }],
        access: "public",
        heroImage: { s3Key: tram, caption: "The first tram", attribution: "Photo: A. Lens" },
      });
      expect(created.story).toMatchObject({
        status: "DRAFT",
        slug: "tram-line-opens",
        heroImage: { s3Key: tram, caption: "The first tram" },
      });
      const { id } = created.story;
      let version = created.story.version;
      for (const action of ["submit", "approve", "publish"] as const) {
        const moved = await editor.stories.transition({ id, version, action });
        expect(moved).toMatchObject({ event: `story-${action}`, notified: 1 });
        version = moved.story.version;
      }
      expect((await editor.stories.get({ id })).status).toBe("PUBLISHED");
      expect((await editor.stories.list({ status: "PUBLISHED" })).items.map((s) => s.id)).toEqual([id]);

      const clock = fakeClock(new Date(Date.now() + 1000));
      await runJobsNow(db, testJobDeps({ clock }));
      expect(receiver.requests).toHaveLength(3);
      const bodies = receiver.requests.map((r) => {
        expect(verifyQtSignature(r.body, secret!, String(r.headers["x-qt-signature"]))).toBe(true);
        return JSON.parse(r.body) as {
          v1: { event: { id: number; name: string; time: number }; data: Record<string, Record<string, unknown>> };
        };
      });
      expect(bodies.map((b) => b.v1.event.name).sort()).toEqual(["story-approve", "story-publish", "story-submit"]);
      const publish = bodies.find((b) => b.v1.event.name === "story-publish")!.v1;
      expect(typeof publish.event.id).toBe("number");
      expect(publish.data.story).toMatchObject({
        id,
        status: "published",
        slug: "tram-line-opens",
        "hero-image-s3-key": tram,
      });
      expect(publish.data.section).toMatchObject({ id: section.id, slug: "city" });
      expect(publish.data["parent-section"]).toMatchObject({ id: parent.id, slug: "news" });
      expect(publish.data["section-collection"]).toMatchObject({ id: section.collectionId, slug: "section-city" });
      expect(publish.data["changed-by"]).toEqual({ id: user.id, name: "Eddie Editor" });
    } finally {
      await receiver.close();
    }
  });

  it("answers CONFLICT for a stale version or a taken slug, UNPROCESSABLE_CONTENT for an illegal move, BAD_REQUEST for bad input", async () => {
    const account = await publisher();
    const { api } = await caller(account.id, ["EDITOR"]);
    const { story } = await api.stories.create({ headline: "One" });
    await api.stories.create({ headline: "Two", slug: "two" });
    expect(await codeOf(api.stories.update({ id: story.id, version: 1, slug: "two" }))).toBe("CONFLICT");
    await api.stories.update({ id: story.id, version: 1, headline: "One, again" });
    expect(await codeOf(api.stories.update({ id: story.id, version: 1, headline: "Stale" }))).toBe("CONFLICT");
    expect(await codeOf(api.stories.transition({ id: story.id, version: 2, action: "publish" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await codeOf(api.stories.create({ headline: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.create({ headline: "x", access: "everyone" as "public" }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.get({ id: "not-a-uuid" }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.get({ id: "7b0a8f0e-8a40-4a7c-9c1a-2b8f8f1d2c3e" }))).toBe("NOT_FOUND");
    await expect(api.stories.transition({ id: story.id, version: 2, action: "retract" })).rejects.toThrow(
      /A draft story cannot be moved/,
    );
    expect(await codeOf(api.stories.delete({ id: story.id, version: 2 }))).toBe("OK");
  });

  it("answers ids beyond the database's integers, text with NUL characters and impossible dates with BAD_REQUEST, not a server error", async () => {
    const account = await publisher();
    const { api } = await caller(account.id, ["EDITOR"]);
    expect(await codeOf(api.stories.list({ sectionId: 2 ** 40 }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.create({ headline: "x", sectionIds: [2 ** 40] }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.create({ headline: "x", tags: [{ id: 2 ** 40 }] }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.create({ headline: "nul \u0000 byte" }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.list({ search: "a\u0000b" }))).toBe("BAD_REQUEST");
    expect(await codeOf(api.stories.create({ headline: "x", breakingNewsExpiresAt: new Date(-8.64e15) }))).toBe(
      "BAD_REQUEST",
    );
    const cards = textCards("hello");
    cards[0]!["story-elements"][0]!.text = "<p>a\u0000b</p>";
    const { story } = await api.stories.create({ headline: "Fine" });
    await expect(api.stories.update({ id: story.id, version: 1, cards })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { details: [{ field: "cards.0.story-elements.0.text" }] },
    });
  });

  it("is for editors (and owners): a moderator gets FORBIDDEN, nobody signed in UNAUTHORIZED", async () => {
    const account = await publisher();
    const { api: owner } = await caller(account.id, ["OWNER"]);
    const { api: moderator } = await caller(account.id, ["MODERATOR"]);
    const { api: revenue } = await caller(account.id, ["REVENUE"]);
    const { story } = await owner.stories.create({ headline: "Owner's story" });
    expect(await codeOf(moderator.stories.list({}))).toBe("FORBIDDEN");
    expect(await codeOf(moderator.stories.create({ headline: "No" }))).toBe("FORBIDDEN");
    expect(await codeOf(moderator.stories.transition({ id: story.id, version: 1, action: "submit" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(revenue.stories.options())).toBe("FORBIDDEN");
    const anonymous = createAnonymousCaller(await getDb());
    expect(await codeOf(anonymous.stories.get({ id: story.id }))).toBe("UNAUTHORIZED");
    expect((await (await getDb()).story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("DRAFT");
  });
});
