/**
 * A scoring configuration tried in shadow, then promoted, end to end: the owner opens Scoring from
 * the moderation settings, runs a shadow configuration with a lower toxicity threshold (30; live:
 * the account's, 70 in the demo), two readers' comments arrive through the REST API (one of
 * toxicity 35 that only the shadow would hold, one of 77.3 that both hold), the moderators reject
 * the first and approve the second, and the page shows how each configuration's holds agreed with
 * them (live: held 1, none rejected, precision 0 %, recall 0 %; shadow: held 2, one rejected,
 * precision 50 %, recall 100 %). The owner promotes the shadow: the live threshold is 30, no shadow
 * is left, and the audit log has the shadow set and its promotion. At desktop and phone sizes, with
 * axe-core. The demo account's scoring and threshold are put back afterwards (the specs share it).
 */
import { pageIdOf, postComment, readerJwt } from "../comments";
import {
  atEachViewport,
  auditEntries,
  demoAccount,
  expect,
  expectCleanPage,
  openFilters,
  seriousViolations,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

type Overview = {
  settings: { shadow: unknown; live: { adaptive: boolean; externalScorer: boolean; toxicityThreshold: number } };
};

atEachViewport((viewport) => {
  test("a shadow configuration is run, compared with the moderators' decisions and promoted, audited", async ({
    page,
    request,
    users,
    signIn,
  }) => {
    const { accountId, jwtSecret } = demoAccount();
    const stamp = `${viewport.name}${Date.now().toString(36)}`;
    await signIn(users.owner);
    const api = page.request;
    // A clean start: no shadow left by another run, and the live settings to put back.
    const before = await trpcQuery<Overview>(api, "scoring.overview", undefined);
    if (before.settings.shadow) await trpcCall(api, "scoring.discard", undefined);
    const live = before.settings.live;
    try {
      await page.goto("/admin/engagement/settings");
      await expect(page.getByRole("heading", { name: "Moderation settings", level: 1 })).toBeVisible();
      await page
        .getByText("The adaptive layer, the external scorer and trying a configuration in shadow")
        .getByRole("link", { name: "Scoring" })
        .click();
      await expect(page).toHaveURL(/\/admin\/engagement\/scoring$/);
      await expect(page.getByRole("heading", { name: "Scoring", level: 1 })).toBeVisible();
      const shadow = page.getByTestId("shadow-panel");
      await expect(shadow).toContainText("No configuration is being tried in shadow.");

      // The shadow: no adaptive layer, no external scorer, threshold 30.
      await shadow.getByLabel("Adaptive layer", { exact: true }).setChecked(false);
      await shadow.getByLabel("Shadow toxicity threshold (1 to 100)").fill("30");
      await shadow.getByRole("button", { name: "Run in shadow" }).click();
      await expect(shadow.getByTestId("shadow-figures")).toContainText("threshold 30");
      await expect(shadow.getByTestId("shadow-figures")).toContainText("0 compared");

      // Two readers' comments: 35 (the shadow holds it, live publishes it) and 77.3 (both hold it).
      const b64 = pageIdOf(`https://localhost/news/scoring-${stamp}`);
      const posted = async (id: string, text: string) => {
        const jwt = await readerJwt({ id: `${id}-${stamp}`, name: `${id} ${stamp}` }, jwtSecret);
        const res = await postComment(request, accountId, b64, text, jwt);
        expect(res.status(), await res.text()).toBe(201);
        return ((await res.json()) as { comment: { id: number } }).comment.id;
      };
      const mild = await posted("mild", `idiots everywhere in this thread about ${stamp}`);
      const aimed = await posted("aimed", `you idiot, the budget ${stamp} is wrong`);
      // The moderators decide: the first rejected, the second approved.
      await trpcCall(api, "moderation.act", { commentId: mild, action: "reject" });
      await trpcCall(api, "moderation.act", { commentId: aimed, action: "approve" });

      await page.reload();
      const figures = shadow.getByTestId("shadow-figures");
      await expect(figures).toContainText("2 compared");
      await expect(figures).toContainText("2 judged (1 rejected or spam, 1 approved");
      await expect(figures).toContainText("1 decided differently by the two");
      const row = (name: string) => figures.getByTestId(`figures-${name}`).getByRole("cell");
      // Would hold, of which rejected, rejections missed, precision, recall.
      await expect(row("live")).toHaveText(["1", "0", "1", "0 %", "0 %"]);
      await expect(row("shadow")).toHaveText(["2", "1", "0", "50 %", "100 %"]);
      await expectCleanPage(page, page.url());

      // Promoted: the threshold is live, no shadow is left.
      await shadow.getByRole("button", { name: "Promote the shadow" }).click();
      const dialog = page.getByRole("dialog", { name: "Make the shadow configuration live?" });
      await expect(dialog).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Promote" }).click();
      await expect(page.getByText("The shadow configuration is live.")).toBeVisible();
      await expect(shadow).toContainText("No configuration is being tried in shadow.");
      await expect(page.getByText("held at toxicity 30 or more")).toBeVisible();
      await expectCleanPage(page, page.url());

      // The audit log: the shadow set and its promotion, by the owner.
      await page.goto("/admin/audit-log");
      for (const action of ["comment_scoring.shadow_set", "comment_scoring.promote"]) {
        await openFilters(page);
        await page.getByLabel("Action").selectOption({ value: action });
        const entry = auditEntries(page)
          .filter({ has: page.locator("code", { hasText: action }) })
          .filter({ hasText: users.owner.email });
        await expect(entry.first()).toBeVisible();
      }
      await expectCleanPage(page, page.url());
    } finally {
      // The demo account as it was, for the specs after this one.
      const now = await trpcQuery<Overview>(api, "scoring.overview", undefined);
      if (now.settings.shadow) await trpcCall(api, "scoring.discard", undefined);
      await trpcCall(api, "scoring.updateLive", { adaptive: live.adaptive, externalScorer: live.externalScorer });
      await trpcCall(api, "moderation.updateSettings", { toxicityThreshold: live.toxicityThreshold });
    }
  });
});
