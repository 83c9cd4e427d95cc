/**
 * The setting of the editorial story service tests: their clock, a publisher with an editor on it
 * (server/testing/editorial-fixture.ts), a CONTENT webhook endpoint subscribed to every story
 * event, and an event's payload read as the tests read it.
 */
import { getDb } from "../db";
import { editorialSetup, testClock } from "./editorial-fixture";

/** The tests' clock: `at(minutes)` is that many minutes after 2026-03-01 10:00 UTC. */
export const at = testClock("2026-03-01T10:00:00.000Z");

/** A publisher at news.example.com with one editor, on the tests' clock. */
export const storySetup = () => editorialSetup(at);

/** An active CONTENT endpoint subscribed to every story event. */
export async function subscribeToStoryEvents(accountId: number) {
  const db = await getDb();
  return db.webhookEndpoint.create({
    data: {
      accountId,
      kind: "CONTENT",
      url: "http://127.0.0.1:9/hook",
      events: ["story-submit", "story-approve", "story-reject", "story-publish", "story-retract", "story-update"],
      secret: "whsec_test",
    },
  });
}

export function payloadOf(event: { payload: unknown }) {
  return event.payload as Record<string, Record<string, unknown> | null>;
}
