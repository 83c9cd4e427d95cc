import { describe, expect, it } from "vitest";

import { guardedFetch } from "./guarded-fetch";
import { BlockedAddressError } from "./url-guard";

describe("guardedFetch", () => {
  const fetch = guardedFetch({ allowPrivate: false, timeoutMs: 1000 });
  it("refuses loopback, private, link-local and localhost addresses before connecting", async () => {
    for (const url of [
      "http://127.0.0.1:9/",
      "http://localhost/",
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
    ]) {
      await expect(fetch(url), url).rejects.toBeInstanceOf(BlockedAddressError);
    }
  });
  it("refuses schemes other than http(s)", async () => {
    await expect(fetch("file:///etc/passwd")).rejects.toThrow(/scheme/);
  });
});
