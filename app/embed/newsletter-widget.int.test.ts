/**
 * The newsletter sign-up widget's frame page (docs/widgets.md "Newsletter sign-up"): its settings
 * carry the newsletters readers may join without a plan (not archived, not for paying
 * subscribers), or only the one the container names; and the loader mounts it.
 */
import { describe, expect, it } from "vitest";

import * as embedRoute from "@/app/embed/[account_id]/[widget]/route";
import { getDb } from "@/server/db";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { LOADER_JS } from "@/server/widgets/bundles.generated";

function frame(accountId: number, query: Record<string, string>) {
  const qs = new URLSearchParams({ page_url: "https://news.example.com/a", ...query }).toString();
  return call(embedRoute.GET, "GET", `/embed/${accountId}/newsletter?${qs}`, {
    account_id: String(accountId),
    widget: "newsletter",
  });
}

function configOf(html: string): Record<string, unknown> {
  const json = /<script id="masthead-config" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json!) as Record<string, unknown>;
}

describe("the newsletter widget's frame", () => {
  it("offers the account's open newsletters, or only the one named", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { domain: "news.example.com" });
    const other = await createTestPublisher(db, { domain: null });
    const make = (accountId: number, slug: string, extra: Record<string, unknown> = {}) =>
      db.newsletter.create({
        data: { accountId, slug, name: `N ${slug}`, senderName: "G", senderEmail: "g@example.com", ...extra },
      });
    await make(account.id, "daily", { description: "Every morning" });
    await make(account.id, "weekly");
    await make(account.id, "old", { archivedAt: new Date() });
    await make(account.id, "paid", { audience: "PAYING", planIds: [1] });
    await make(other.id, "theirs");

    const all = await frame(account.id, {});
    expect(all.status).toBe(200);
    const html = await all.text();
    expect(html).toContain("<title>Get our newsletters</title>");
    expect(configOf(html)).toMatchObject({
      kind: "newsletter",
      accountId: account.id,
      newsletters: [
        { slug: "daily", name: "N daily", description: "Every morning" },
        { slug: "weekly", name: "N weekly", description: null },
      ],
    });

    const one = configOf(await (await frame(account.id, { newsletter: "weekly" })).text());
    expect(one.newsletters).toEqual([{ slug: "weekly", name: "N weekly", description: null }]);
    // A closed or unknown one offers nothing; a malformed slug is dropped like any bad setting.
    expect(configOf(await (await frame(account.id, { newsletter: "paid" })).text()).newsletters).toEqual([]);
    expect(configOf(await (await frame(account.id, { newsletter: "Not A Slug" })).text()).newsletters).toHaveLength(2);
  });

  it("is mounted by the loader's newsletterWidgetIframe, passing data-masthead-newsletter on", () => {
    expect(LOADER_JS).toContain("newsletterWidgetIframe");
    expect(LOADER_JS).toContain('"newsletter"');
  });
});
