/**
 * A fake Stripe server (fake-stripe.ts) for one test file: started before its tests, closed after
 * them and, with `resetEach`, emptied before each test. `onStart` receives the running server.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";

import { startFakeStripe, type FakeStripe } from "./fake-stripe";

export function withFakeStripe(onStart: (fake: FakeStripe) => void, opts: { resetEach?: boolean } = {}): void {
  let fake: FakeStripe | null = null;
  beforeAll(async () => {
    fake = await startFakeStripe();
    onStart(fake);
  });
  afterAll(() => fake?.close());
  if (opts.resetEach) beforeEach(() => fake?.reset());
}
