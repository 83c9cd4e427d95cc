/** Test fixtures of offers and their tests: the demo publisher's catalogue, staff, and the reader calls. */
import { GET as OFFER } from "@/app/api/access/v1/offer/route";
import { resetEnvCache } from "@/env.js";
import { getDb } from "@/server/db";
import { DEMO, seedDemoPublisher } from "@/server/seed/demo";
import { seedDemoCatalogue } from "@/server/seed/demo-catalogue";
import type { ReaderOffer } from "@/server/subscriptions/offers/reader-offer";
import { call, readerJwt } from "@/server/testing/engagement";
import { createTestStaff } from "@/server/testing/staff";

export const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
export const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36";

export async function offerWorld() {
  const db = await getDb();
  const report = { created: [] as string[] };
  const accountId = await seedDemoPublisher(db, report);
  await seedDemoCatalogue(db, { accountId }, report);
  const owner = await createTestStaff(db, { roles: ["OWNER"], account: accountId });
  const revenue = await createTestStaff(db, { roles: ["REVENUE"], account: accountId });
  const monthly = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title: "Monthly" } });
  const yearly = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title: "Yearly" } });
  return { db, accountId, owner, revenue, monthly, yearly, jwtSecret: DEMO.jwtSecret };
}

export const copy = (headline: string, body = "Read every story.") => [{ locale: "en" as const, headline, body }];

/** The reader endpoint as a page calls it. */
export async function askOffer(
  query: Record<string, string>,
  headers: Record<string, string> = { "user-agent": DESKTOP },
): Promise<{ status: number; body: ReaderOffer & { error?: { details?: { field: string }[] } } }> {
  const q = new URLSearchParams({ key: DEMO.accountKey, ...query });
  const res = await call(OFFER, "GET", `/api/access/v1/offer?${q.toString()}`, {}, undefined, headers);
  return { status: res.status, body: (await res.json()) as ReaderOffer };
}

export async function jwtFor(id: string, secret: string): Promise<string> {
  return readerJwt({ id, name: `Reader ${id}`, email: `${id}@example.com` }, { secret });
}

export function demoTools(on: boolean) {
  process.env.DEMO_TOOLS = on ? "true" : "false";
  resetEnvCache();
}
