/** How the staff e-mails name an account's dashboard (staff-passwords.ts theDashboardOf). */
import { describe, expect, it } from "vitest";

import { theDashboardOf } from "./staff-passwords";

describe("theDashboardOf", () => {
  it("puts 'the' before a name, never before a name that starts with its own", () => {
    expect(theDashboardOf("Courier")).toBe("the Courier dashboard");
    expect(theDashboardOf("The Daily Masthead")).toBe("The Daily Masthead dashboard");
    expect(theDashboardOf("the gazette")).toBe("the gazette dashboard");
    expect(theDashboardOf("Theatre Weekly")).toBe("the Theatre Weekly dashboard");
  });
});
