// newsletterSends.*: roles, bad input, test sends through the outbox, publish and send in one transaction (both databases).
import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { recordingTransport, runJobsNow, testJobDeps } from "../../testing/jobs";
import { insertNewsletter, insertSubscribers } from "../../testing/newsletter-fixtures";
import { insertStory } from "../../testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";
import { appUrl } from "../trpc";

let db: Db;
beforeEach(async () => {
  db = await getDb();
});

async function setUp() {
  const editor = await createTestStaff(db, { roles: ["EDITOR"] });
  const contributor = await createTestStaff(db, { roles: ["CONTRIBUTOR"], account: editor.account.id });
  const accountId = editor.account.id;
  await db.publisherConfig.create({
    data: { accountId, siteUrl: "https://news.example.com", cdnImage: "images.example.com" },
  });
  const newsletter = await insertNewsletter(db, accountId);
  await insertSubscribers(db, { accountId, newsletterId: newsletter.id, count: 3 });
  return { editor, contributor, accountId, newsletter };
}

describe("newsletterSends", () => {
  it("answers bad input with BAD_REQUEST and changes nothing; contributors may not send", async () => {
    const { editor, contributor, accountId, newsletter } = await setUp();
    const story = await insertStory(db, accountId);
    const bad = [
      editor.caller.newsletterSends.send({ storyId: "not-a-uuid", newsletterIds: [newsletter.id] }),
      editor.caller.newsletterSends.send({ storyId: story.id, newsletterIds: [] }),
      editor.caller.newsletterSends.send({ storyId: story.id, newsletterIds: [newsletter.id], subject: "a\nBcc: x" }),
      editor.caller.newsletterSends.test({
        storyId: story.id,
        newsletterId: newsletter.id,
        to: ["a@x.test", "b@x.test", "c@x.test", "d@x.test", "e@x.test", "f@x.test"],
      }),
      editor.caller.newsletterSends.test({ storyId: story.id, newsletterId: newsletter.id, to: ["not an address"] }),
    ];
    for (const call of bad) expect(await trpcCodeOf(call)).toBe("BAD_REQUEST");
    expect(
      await trpcCodeOf(contributor.caller.newsletterSends.send({ storyId: story.id, newsletterIds: [newsletter.id] })),
    ).toBe("FORBIDDEN");
    expect(await db.newsletterSend.count()).toBe(0);
    expect(await db.outgoingEmail.count()).toBe(0);
  });

  it("a test send goes to the account's staff through the outbox, marked [Test], with no send or delivery", async () => {
    const { editor, accountId, newsletter } = await setUp();
    const story = await insertStory(db, accountId, { headline: "Budget day" });
    await createTestStaff(db, { roles: ["EDITOR"], account: accountId, email: "desk@gazette.test" });
    await createTestStaff(db, { roles: ["OWNER"], account: accountId, email: "chief@gazette.test" });
    // Only the account's staff: a stranger's address is refused, and nothing is mailed.
    expect(
      await trpcCodeOf(
        editor.caller.newsletterSends.test({
          storyId: story.id,
          newsletterId: newsletter.id,
          to: ["desk@gazette.test", "stranger@example.com"],
        }),
      ),
    ).toBe("BAD_REQUEST");
    expect(await db.outgoingEmail.count()).toBe(0);
    expect(
      await editor.caller.newsletterSends.test({
        storyId: story.id,
        newsletterId: newsletter.id,
        to: ["Desk@Gazette.test", "desk@gazette.test", "chief@gazette.test"],
      }),
    ).toEqual({ queued: 2 });
    const mails = await db.outgoingEmail.findMany({ where: { accountId }, orderBy: { to: "asc" } });
    expect(mails.map((m) => [m.to, m.subject, m.kind])).toEqual([
      ["chief@gazette.test", "[Test] Budget day", "newsletter.test"],
      ["desk@gazette.test", "[Test] Budget day", "newsletter.test"],
    ]);
    expect(mails[0]!.html).toContain("Budget day");
    // From the newsletter's sender, as its issues are, not MAIL_FROM: the outbox hands it to the transport.
    expect(mails.map((m) => m.sender)).toEqual([
      '"The Gazette" <briefing@gazette.test>',
      '"The Gazette" <briefing@gazette.test>',
    ]);
    const mail = recordingTransport();
    await runJobsNow(db, testJobDeps({ mail }));
    expect(mail.sent.map((m) => [m.to, m.from])).toEqual(
      expect.arrayContaining([
        ["chief@gazette.test", '"The Gazette" <briefing@gazette.test>'],
        ["desk@gazette.test", '"The Gazette" <briefing@gazette.test>'],
      ]),
    );
    expect(await db.newsletterSend.count()).toBe(0);
    expect(await db.newsletterDelivery.count()).toBe(0);
  });

  it("publish and send: publishes an approved story and creates its send once; choices count the audience", async () => {
    const { editor, accountId, newsletter } = await setUp();
    expect(await editor.caller.newsletterSends.choices()).toEqual([
      { id: newsletter.id, name: newsletter.name, audience: "OPT_IN", recipients: 3 },
    ]);
    const story = await insertStory(db, accountId, { status: "APPROVED", headline: "Approved one" });
    const first = await editor.caller.newsletterSends.publishAndSend({
      storyId: story.id,
      version: story.version,
      newsletterIds: [newsletter.id],
    });
    expect(first.sends[0]).toMatchObject({ newsletterId: newsletter.id, created: true, status: "QUEUED" });
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("PUBLISHED");
    // Sending it again (a second click, another tab): the same send.
    const again = await editor.caller.newsletterSends.send({ storyId: story.id, newsletterIds: [newsletter.id] });
    expect(again.sends[0]).toMatchObject({ id: first.sends[0]!.id, created: false });
    const page = await editor.caller.newsletterSends.list({ storyId: story.id });
    expect(page.items.map((s) => [s.id, s.subject, s.status])).toEqual([
      [first.sends[0]!.id, "Approved one", "QUEUED"],
    ]);
  });

  it("publish and send of a story that cannot be published changes nothing", async () => {
    const { editor, accountId, newsletter } = await setUp();
    const draft = await insertStory(db, accountId, { status: "DRAFT" });
    expect(
      await trpcCodeOf(
        editor.caller.newsletterSends.publishAndSend({
          storyId: draft.id,
          version: draft.version,
          newsletterIds: [newsletter.id],
        }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await db.newsletterSend.count()).toBe(0);
  });

  it("refuses to send while the site URL is unset (the mail's story link would answer 404), and says where to set it", async () => {
    const { editor, accountId, newsletter } = await setUp();
    // Unset, or Masthead's own address (what the demo seeds): neither serves story pages.
    for (const siteUrl of ["", appUrl()]) {
      await db.publisherConfig.update({ where: { accountId }, data: { siteUrl } });
      const approved = await insertStory(db, accountId, { status: "APPROVED" });
      const published = await insertStory(db, accountId, { status: "PUBLISHED" });
      const publishAndSend = editor.caller.newsletterSends.publishAndSend({
        storyId: approved.id,
        version: approved.version,
        newsletterIds: [newsletter.id],
      });
      await expect(publishAndSend).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(publishAndSend).rejects.toThrow(/Set it in Settings → Site \(\/admin\/settings\)/);
      const send = editor.caller.newsletterSends.send({ storyId: published.id, newsletterIds: [newsletter.id] });
      await expect(send).rejects.toMatchObject({ code: "BAD_REQUEST" });
      // Neither published nor sent.
      expect((await db.story.findUniqueOrThrow({ where: { id: approved.id } })).status).toBe("APPROVED");
      expect(await db.newsletterSend.count()).toBe(0);
      const preview = await editor.caller.newsletterSends.preview({
        storyId: approved.id,
        newsletterId: newsletter.id,
      });
      expect(preview.siteUrlSet).toBe(false);
    }
  });

  it("previews the mail as readers get it: subject and HTML with the story's link on the site", async () => {
    const { editor, accountId, newsletter } = await setUp();
    const story = await insertStory(db, accountId, { status: "APPROVED", headline: "Budget day" });
    const preview = await editor.caller.newsletterSends.preview({
      storyId: story.id,
      newsletterId: newsletter.id,
      subject: "Tonight: the budget",
    });
    expect(preview).toMatchObject({ subject: "Tonight: the budget", siteUrlSet: true });
    expect(preview.html).toContain("Budget day");
    expect(preview.html).toContain(`https://news.example.com/${story.slug}`);
    expect(await db.outgoingEmail.count()).toBe(0);
  });
});
