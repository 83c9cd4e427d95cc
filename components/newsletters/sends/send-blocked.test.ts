import { describe, expect, it } from "vitest";

import { sendBlockedReason, testBlockedReason } from "./send-blocked";

describe("why a newsletter button is disabled", () => {
  it("Send test: a newsletter, then an address", () => {
    expect(testBlockedReason({ chosen: 0, addresses: 2 })).toBe("Choose a newsletter to send a test of.");
    expect(testBlockedReason({ chosen: 1, addresses: 0 })).toBe("Give at least one test address.");
    expect(testBlockedReason({ chosen: 1, addresses: 1 })).toBeNull();
  });

  it("Send / Publish and send: the self-approval rule first, then unsaved changes, then a newsletter", () => {
    const rule =
      "This account does not let anyone approve, publish or schedule a story they wrote; another editor must.";
    expect(sendBlockedReason({ chosen: 1, dirty: true, blocked: rule })).toBe(rule);
    expect(sendBlockedReason({ chosen: 0, dirty: true, blocked: null })).toBe("Save your changes before sending.");
    expect(sendBlockedReason({ chosen: 0, dirty: false, blocked: null })).toBe("Choose at least one newsletter.");
    expect(sendBlockedReason({ chosen: 2, dirty: false, blocked: null })).toBeNull();
  });
});
