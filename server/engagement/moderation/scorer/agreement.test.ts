import { describe, expect, it } from "vitest";

import { agreementOf } from "./agreement";

describe("agreementOf", () => {
  it("gives the precision and recall of holding from the judged comments", () => {
    // Held 10: 8 rejected by moderators, 2 approved; of 12 rejected, 4 passed.
    expect(agreementOf({ heldRejected: 8, heldApproved: 2, passedRejected: 4, passedApproved: 30 })).toEqual({
      held: 10,
      heldRejected: 8,
      heldApproved: 2,
      missed: 4,
      precision: 0.8,
      recall: 0.667,
    });
  });

  it("has no precision when it held nothing, no recall when moderators rejected nothing", () => {
    expect(agreementOf({ heldRejected: 0, heldApproved: 0, passedRejected: 3, passedApproved: 5 })).toMatchObject({
      precision: null,
      recall: 0,
    });
    expect(agreementOf({ heldRejected: 0, heldApproved: 2, passedRejected: 0, passedApproved: 5 })).toMatchObject({
      precision: 0,
      recall: null,
    });
  });
});
