import { describe, expect, it } from "vitest";

import { GET as getConfig } from "@/app/api/v1/config/route";
import { getEnv } from "@/env.js";

import { getDb } from "../../db";
import { ImageHosts } from "../../imports/content/story-plan";
import { assertImageRefsAllowed } from "../../publishing/editorial/image-refs";
import { forgetPublisherCache, getPublisher, isPublicationUrl } from "../../publishing/publisher";
import { insertSection } from "../../testing/publishing-factories";
import { createTestTeam, trpcCodeOf } from "../../testing/staff";

const SETTINGS = {
  name: "The Alpha Times",
  siteUrl: "https://www.alpha.example/",
  siteDomains: ["Alpha.example", "m.alpha.example", "www.alpha.example", "alpha.example"],
  cdnImage: "https://images.alpha.example/",
  logoUrl: "https://images.alpha.example/logo.png",
  seo: { title: "Alpha Times: news", description: "What happens in Alpha", keywords: "alpha, news" },
  language: { isoCode: "fr", ietfCode: "fr-FR", direction: "ltr" as const },
  menu: null,
};

async function config(host: string) {
  forgetPublisherCache();
  const response = await getConfig(new Request(`http://${host}/api/v1/config`, { headers: { host } }), {
    params: Promise.resolve({}),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe("settings router", () => {
  it("saves what GET /api/v1/config serves, audits it and records config-update with its purge keys", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "alpha", { owner: ["OWNER"] });
    const section = await insertSection(db, owner.account.id, { name: "Politics", slug: "politics" });
    await db.webhookEndpoint.create({
      data: { accountId: owner.account.id, kind: "CONTENT", url: "https://hooks.example/x", events: ["config-update"] },
    });

    const before = await owner.caller.settings.get();
    expect(before.siteUrlSet).toBe(false);
    expect(before.appUrl).toBe(getEnv().APP_URL.replace(/\/+$/, ""));

    const saved = await owner.caller.settings.update({
      ...SETTINGS,
      menu: [
        { title: "Politics", type: "section", sectionId: section.id },
        { title: "Elections", type: "tag", tagSlug: "elections" },
        { title: "About", type: "link", url: "/about" },
      ],
    });
    expect(saved.changed.sort()).toEqual(
      ["cdnImage", "language", "logoUrl", "menu", "name", "seo", "siteDomains", "siteUrl"].sort(),
    );
    expect(saved.view.siteUrlSet).toBe(true);
    expect(saved.view.settings).toMatchObject({
      siteUrl: "https://www.alpha.example",
      siteDomains: ["alpha.example", "m.alpha.example"],
      cdnImage: "images.alpha.example",
    });

    const served = await config("m.alpha.example");
    expect(served).toMatchObject({
      "publisher-name": "The Alpha Times",
      "sketches-host": "https://www.alpha.example",
      "cdn-image": "images.alpha.example",
      language: { "iso-code": "fr", "ietf-code": "fr-FR", direction: "ltr" },
      "publisher-settings": { "publisher-logo": { url: "https://images.alpha.example/logo.png" } },
    });
    expect((served["seo-metadata"] as { data: unknown }[])[0]).toMatchObject({
      "owner-type": "home",
      data: { title: "Alpha Times: news", description: "What happens in Alpha", keywords: "alpha, news" },
    });
    const menu = (served.layout as { menu: { title: string; url: string }[] }).menu;
    expect(menu.map((m) => [m.title, m.url])).toEqual([
      ["Politics", "https://www.alpha.example/politics"],
      ["Elections", "https://www.alpha.example/topic/elections"],
      ["About", "https://www.alpha.example/about"],
    ]);

    const publisher = await getPublisher(db, owner.account.id, { appUrl: getEnv().APP_URL });
    expect(isPublicationUrl(publisher, "https://m.alpha.example/2026/story")).toBe(true);
    expect(isPublicationUrl(publisher, "https://evil.example/alpha.example")).toBe(false);

    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "settings.update" } });
    expect(audit.metadata).toMatchObject({ siteUrl: { to: "https://www.alpha.example" } });
    const event = await db.webhookEvent.findFirstOrThrow({ where: { name: "config-update" } });
    expect(event.payload).toMatchObject({ "purge-keys": ["config"], "purge-all": true });
    expect(await db.webhookDelivery.count({ where: { eventId: event.id } })).toBe(1);

    // The same again changes nothing and records nothing; back to the sections menu is a change.
    expect((await owner.caller.settings.update({ ...SETTINGS, menu: saved.view.settings.menu })).changed).toEqual([]);
    const menuOnly = await owner.caller.settings.update({ ...SETTINGS });
    expect(menuOnly.changed).toEqual(["menu"]);
    expect(await db.webhookEvent.count({ where: { name: "config-update" } })).toBe(2);
    const last = await db.webhookEvent.findFirstOrThrow({ where: { name: "config-update" }, orderBy: { id: "desc" } });
    expect(last.payload).toMatchObject({ "purge-all": false });

    // The dashboard's time zone is the account's.
    const zoned = await owner.caller.settings.update({ ...SETTINGS, timeZone: "Europe/Madrid" });
    expect(zoned.changed).toEqual(["timeZone"]);
    expect(zoned.view.settings.timeZone).toBe("Europe/Madrid");
    expect(await db.account.findUniqueOrThrow({ where: { id: owner.account.id }, select: { timeZone: true } })).toEqual(
      {
        timeZone: "Europe/Madrid",
      },
    );

    // The site URL can be emptied again: Masthead's own address stands in for it.
    const emptied = await owner.caller.settings.update({ ...SETTINGS, timeZone: "Europe/Madrid", siteUrl: "" });
    expect(emptied.changed.sort()).toEqual(["siteDomains", "siteUrl"]);
    expect(emptied.view).toMatchObject({ siteUrlSet: false, settings: { siteUrl: "" } });
    expect(emptied.view.settings.siteDomains).toEqual(["alpha.example", "m.alpha.example", "www.alpha.example"]);
    forgetPublisherCache();
    const appUrl = getEnv().APP_URL.replace(/\/+$/, "");
    expect((await getPublisher(db, owner.account.id, { appUrl: getEnv().APP_URL }))?.siteUrl).toBe(appUrl);
  });

  it("edits the external image hosts that stories and content imports may use, audited", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "gamma", { owner: ["OWNER"] });
    const accountId = owner.account.id;
    const ref = (key: string) => [{ field: "heroImage.s3Key", key }];
    // The refused hosts, each with the first URL that named it.
    const refusedHosts = async (refs: ReturnType<typeof ref>) => [
      ...(await new ImageHosts().refused(db, accountId, refs)).keys(),
    ];
    expect(await refusedHosts(ref("https://images.old.example/a.jpg"))).toEqual(["images.old.example"]);

    const saved = await owner.caller.settings.update({
      ...SETTINGS,
      externalImageHosts: ["https://Images.Old.example/wp-content/", "*.cdn.example", "images.old.example"],
    });
    expect(saved.changed).toContain("externalImageHosts");
    expect(saved.view.settings.externalImageHosts).toEqual(["images.old.example", "*.cdn.example"]);
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "settings.update", accountId } });
    expect(audit.metadata).toMatchObject({
      externalImageHosts: { from: [], to: ["images.old.example", "*.cdn.example"] },
    });

    // What the importer and the editor read.
    expect(await refusedHosts(ref("https://images.old.example/a.jpg"))).toEqual([]);
    expect(await refusedHosts(ref("https://eu.cdn.example/a.jpg"))).toEqual([]);
    expect(await refusedHosts(ref("https://elsewhere.example/a.jpg"))).toEqual(["elsewhere.example"]);
    await expect(
      assertImageRefsAllowed(db, { accountId, refs: ref("https://images.old.example/b.png") }),
    ).resolves.toBeUndefined();

    // Other settings keys are kept; emptying the list removes it.
    const again = await owner.caller.settings.update({ ...SETTINGS, externalImageHosts: [] });
    expect(again.view.settings).toMatchObject({ externalImageHosts: [], logoUrl: SETTINGS.logoUrl });
    expect(await refusedHosts(ref("https://images.old.example/a.jpg"))).toEqual(["images.old.example"]);
  });

  it("refuses bad input with 4xx and keeps non-owners out", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "beta", { owner: ["OWNER"], editor: ["EDITOR"] });
    const bad = [
      { siteUrl: "ftp://x.example" },
      { siteUrl: "https://x.example/?q=1" },
      { siteUrl: "javascript:alert(1)" },
      { siteDomains: ["not a host"] },
      { cdnImage: "images.example.com/<x>" },
      { externalImageHosts: ["not a host"] },
      { externalImageHosts: ["*."] },
      { externalImageHosts: ["*"] },
      { externalImageHosts: ["**.example.com"] },
      { logoUrl: "data:image/png;base64,AAAA" },
      { language: { isoCode: "english", ietfCode: "en-US", direction: "ltr" as const } },
      { menu: [{ title: "X", type: "link" as const, url: "//evil.example" }] },
      { menu: [{ title: "X", type: "section" as const }] },
      { name: "" },
      { timeZone: "Mars/Olympus_Mons" },
    ];
    for (const patch of bad)
      expect(await trpcCodeOf(owner.caller.settings.update({ ...SETTINGS, ...patch })), JSON.stringify(patch)).toBe(
        "BAD_REQUEST",
      );
    expect(
      await trpcCodeOf(
        owner.caller.settings.update({ ...SETTINGS, menu: [{ title: "Gone", type: "section", sectionId: 999_999 }] }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await trpcCodeOf(editor.caller.settings.get())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.settings.update(SETTINGS))).toBe("FORBIDDEN");
  });
});
