/**
 * The setting of an editorial service test: a publisher, its editors, and the context the
 * editorial services take (who acts, when, and the app's address for links), on a test clock.
 */
import { getDb } from "../db";
import { createTestPublisher } from "./publishing-factories";
import { insertEditor } from "./staff";

export const EDITORIAL_APP_URL = "http://localhost:3000";

/** A clock for a test: `at(minutes)` is that many minutes after `start` (ISO 8601). */
export function testClock(start: string): (minutes: number) => Date {
  const t0 = new Date(start).getTime();
  return (minutes) => new Date(t0 + minutes * 60_000);
}

/** A publisher at news.example.com with one editor per entry of `editors` (the first acts by default). */
export async function editorialSetup(at: (minutes: number) => Date, editors: { name?: string }[] = [{}]) {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  const staff = [];
  for (const editor of editors) staff.push(await insertEditor(db, account.id, editor));
  const actor = staff[0]!;
  const ctx = (minutes = 0, who = actor) => ({ actor: who, now: at(minutes), appUrl: EDITORIAL_APP_URL });
  return { db, account, actor, editors: staff, ctx };
}
