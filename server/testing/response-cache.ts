/**
 * Integration tests run with the response cache off (vitest.integration.config.ts: fixtures are
 * written past the services that purge it). A test file about it turns it on for its tests:
 *
 *   enableResponseCache();
 */
import { afterAll, beforeAll } from "vitest";

import { resetEnvCache } from "../../env.js";

export function enableResponseCache(megabytes = 64): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.RESPONSE_CACHE_MB;
    process.env.RESPONSE_CACHE_MB = String(megabytes);
    resetEnvCache();
  });
  afterAll(() => {
    if (before === undefined) delete process.env.RESPONSE_CACHE_MB;
    else process.env.RESPONSE_CACHE_MB = before;
    resetEnvCache();
  });
}
