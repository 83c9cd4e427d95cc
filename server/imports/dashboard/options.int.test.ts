/**
 * The Import page's options, on PGlite and PostgreSQL: what the command line's flags do, from the
 * dashboard. A subscriptions file's old plans mapped on the page (imports.setPlanMapping) and taken
 * as of its export, with the same result as `--plans … --as-of …`; a Ghost export on the old site's
 * address; options a source does not take, plans of another account, an old plan mapped twice:
 * refused, changing nothing.
 */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import {
  contentImportAccount,
  FIXTURES,
  importAccount,
  importDirForTests,
  importedStory,
  recurringPlans,
  tableCounts,
  uploadImportFile,
} from "@/server/testing/imports";
import { runJobsNow } from "@/server/testing/jobs";
import { createTestStaff } from "@/server/testing/staff";

const importDir = importDirForTests("masthead-import-options-");

const EXPORTED = "2026-09-25T00:00:00Z";

describe("the Import page's options", () => {
  it("maps a subscriptions file's old plans on the page and imports it as of its export, as the command line does", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const plans = await recurringPlans(db, account.id);
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id, name: "Olive Owner" });
    const editor = await createTestStaff(db, { roles: ["EDITOR", "REVENUE"], account: account.id });
    const file = path.join(FIXTURES, "razorpay-subscriptions.csv");
    const { id } = await uploadImportFile(db, owner, {
      file,
      source: "subscriptions",
      dir: importDir(),
      options: { announce: false, asOf: EXPORTED },
    });
    await runJobsNow(db);

    // The dry run lists the file's old plans; unmapped, every row is refused.
    const unmapped = await owner.caller.imports.upload({ uploadId: id });
    expect(unmapped.options).toEqual({ announce: false, asOf: EXPORTED });
    const rows = (await fs.readFile(file, "utf8")).trim().split("\n").length - 1;
    expect(unmapped.dryReport!.oldPlans).toEqual([{ plan: "plan_RZP_MONTHLY", rows }]);
    expect(unmapped.dryReport!.kinds.subscription).toMatchObject({ create: 0, refuse: rows });
    const gold = plans.get("Gold monthly")!;
    expect(await owner.caller.imports.planChoices()).toEqual(
      [...plans.values()].map((p) => ({ id: p.id, label: expect.stringContaining(`${p.title} (Digital;`) as string })),
    );

    // Refused, changing nothing: others, another account's plan, an old plan twice, another source.
    const elsewhere = await importAccount(db);
    const theirs = (await recurringPlans(db, elsewhere.id)).get("Gold monthly")!;
    const disqus = await uploadImportFile(db, owner, {
      file: path.join(FIXTURES, "disqus-sample.xml"),
      source: "disqus",
      dir: importDir(),
    });
    await runJobsNow(db);
    const before = await tableCounts(db);
    const mapping = (plan: number | null) => ({ uploadId: id, plans: [{ old: "plan_RZP_MONTHLY", plan }] });
    await expect(editor.caller.imports.setPlanMapping(mapping(gold.id))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(editor.caller.imports.planChoices()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(owner.caller.imports.setPlanMapping(mapping(theirs.id))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: `No plan of this account has the id ${theirs.id}.`,
    });
    await expect(
      owner.caller.imports.setPlanMapping({
        uploadId: id,
        plans: [
          { old: "plan_RZP_MONTHLY", plan: gold.id },
          { old: "plan_RZP_MONTHLY", plan: null },
        ],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: 'The old plan "plan_RZP_MONTHLY" is mapped twice.' });
    await expect(owner.caller.imports.setPlanMapping({ uploadId: id, plans: [] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      owner.caller.imports.setPlanMapping({ uploadId: disqus.id, plans: [{ old: "x", plan: gold.id }] }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: "A disqus file has no plan mapping." });
    expect(await tableCounts(db)).toEqual(before);

    // Mapped: checked again, then imported; statuses as at the export, as with --as-of.
    await owner.caller.imports.setPlanMapping(mapping(gold.id));
    await runJobsNow(db);
    const mapped = await owner.caller.imports.upload({ uploadId: id });
    expect(mapped.options).toEqual({
      announce: false,
      asOf: EXPORTED,
      plans: [{ old: "plan_RZP_MONTHLY", plan: gold.id }],
    });
    // Only the row Razorpay has not charged yet is left out, for that reason, not its plan.
    expect(mapped.dryReport!.lines.refuse.map((l) => [l.sourceId, l.reason])).toEqual([
      ["razorpay:sub_R1AUTH", "its first charge is still to come (authenticated): import it once it is active"],
    ]);
    await owner.caller.imports.start({ uploadId: id, digest: mapped.fileDigest });
    await runJobsNow(db);
    const imported = await owner.caller.imports.upload({ uploadId: id });
    expect(imported.run!.report!.kinds.subscription).toEqual(mapped.dryReport!.kinds.subscription);
    const byToken = (paymentToken: string) =>
      db.subscription.findFirstOrThrow({ where: { accountId: account.id, paymentToken } });
    expect(await byToken("sub_R1HALT")).toMatchObject({ status: "EXPIRED", planId: gold.id });
    expect(await byToken("sub_R1MIRA")).toMatchObject({ status: "CANCELLED", cancelledAt: new Date(EXPORTED) });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "import.plans_mapped", targetId: id } });
    expect(audit).toMatchObject({
      actorId: owner.user.id,
      metadata: { source: "subscriptions", mapped: 1, unmapped: 0 },
    });
  });

  it("maps a Ghost members file's complimentary tiers on the page", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const gold = (await recurringPlans(db, account.id)).get("Gold yearly")!;
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
    const { id } = await uploadImportFile(db, owner, {
      file: path.join(FIXTURES, "ghost-members.csv"),
      source: "ghost-members",
      dir: importDir(),
    });
    await runJobsNow(db);
    const unmapped = (await owner.caller.imports.upload({ uploadId: id })).dryReport!;
    expect(unmapped.oldPlans).toEqual([{ plan: "complimentary", rows: 1 }]);
    expect(unmapped.kinds.subscription?.create ?? 0).toBe(0);
    await owner.caller.imports.setPlanMapping({ uploadId: id, plans: [{ old: "complimentary", plan: gold.id }] });
    await runJobsNow(db);
    const mapped = (await owner.caller.imports.upload({ uploadId: id })).dryReport!;
    expect(mapped.kinds.subscription).toMatchObject({ create: 1 });
    expect(mapped.lines.create.filter((l) => l.kind === "subscription").map((l) => l.label)).toEqual([
      expect.stringContaining(`"Gold yearly" (#${gold.id}), tier complimentary`) as string,
    ]);
  });

  it("resolves a Ghost export's __GHOST_URL__ on the address given at upload", async () => {
    const db = await getDb();
    const account = await contentImportAccount(db, ["old.example.org"]);
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
    const { id } = await uploadImportFile(db, owner, {
      file: path.join(FIXTURES, "ghost-move.json"),
      source: "ghost",
      dir: importDir(),
      options: { announce: false, ghostUrl: "https://old.example.org" },
    });
    await runJobsNow(db);
    const checked = await owner.caller.imports.upload({ uploadId: id });
    expect(checked.dryReport).toMatchObject({ status: "completed", problems: [] });
    await owner.caller.imports.start({ uploadId: id, digest: checked.fileDigest });
    await runJobsNow(db);
    const story = await importedStory(db, account.id, "ghost", "6600000000000000000000b1");
    expect(story.heroImageS3Key).toBe("https://old.example.org/content/images/2025/03/lights.jpg");
  });
});
