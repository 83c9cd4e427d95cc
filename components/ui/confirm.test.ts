import { describe, expect, it } from "vitest";

import { dismissLabelOf } from "./confirm";

describe("the confirm dialog's dismiss button", () => {
  it("never reads 'Cancel' beside a move named 'Cancel …'", () => {
    for (const confirmLabel of ["Cancel subscription", "Cancel schedule", "cancel send", " Cancel"]) {
      expect(dismissLabelOf({ confirmLabel }), confirmLabel).not.toMatch(/^\s*cancel\b/i);
    }
    expect(dismissLabelOf({ confirmLabel: "Cancel subscription", dismissLabel: "Keep subscription" })).toBe(
      "Keep subscription",
    );
  });

  it("reads 'Cancel' beside other moves", () => {
    expect(dismissLabelOf({ confirmLabel: "Delete" })).toBe("Cancel");
    expect(dismissLabelOf({ confirmLabel: "Cancellation fee" })).toBe("Cancel");
  });
});
