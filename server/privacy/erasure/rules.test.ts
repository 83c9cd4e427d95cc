import { describe, expect, it } from "vitest";

import {
  commentFate,
  ERASED_MARK,
  needlesOf,
  needsGatewayStop,
  scrubJson,
  scrubText,
  tombstoneEmail,
  tombstoneFields,
} from "./rules";
import { ERASURE_STEPS } from "./steps";

const ada = needlesOf({
  email: "Ada@Example.com",
  communicationEmail: "ada.letters@example.com",
  name: "Ada Lovelace",
  username: "ada",
  firstName: "Ada",
  lastName: "Lovelace",
  identityEmails: ["ada@example.com", null, "erased-x@erased.invalid"],
});

describe("the erasure rule", () => {
  it("finds the reader's needles: addresses lower-cased once, names of three letters or more", () => {
    expect(ada.emails).toEqual(["ada@example.com", "ada.letters@example.com"]);
    expect(ada.names).toEqual(["Ada Lovelace", "ada", "Ada", "Lovelace"]);
  });

  it("scrubs an address anywhere and a name only as a whole word", () => {
    expect(scrubText("Mail ADA@example.com now", ada)).toBe(`Mail ${ERASED_MARK} now`);
    expect(scrubText("Ada Lovelace replied; Adam and Lovelaces did not", ada)).toBe(
      `${ERASED_MARK} replied; Adam and Lovelaces did not`,
    );
    expect(scrubText("Nothing here", ada)).toBe("Nothing here");
  });

  it("scrubs every string and key of a JSON value and says whether anything changed", () => {
    const { value, changed } = scrubJson(
      { member: { name: "Ada Lovelace", email: "ada@example.com", id: 7 }, tags: ["x", "Ada"], "ada@example.com": 1 },
      ada,
    );
    expect(changed).toBe(true);
    expect(value).toEqual({
      member: { name: ERASED_MARK, email: ERASED_MARK, id: 7 },
      tags: ["x", ERASED_MARK],
      [ERASED_MARK]: 1,
    });
    expect(scrubJson({ a: [1, "b"] }, ada)).toEqual({ value: { a: [1, "b"] }, changed: false });
  });

  it("keeps or removes comments by the rule; an answered one becomes a placeholder", () => {
    expect(commentFate("keep", true)).toBe("keep");
    expect(commentFate("keep", false)).toBe("keep");
    expect(commentFate("remove", true)).toBe("placeholder");
    expect(commentFate("remove", false)).toBe("delete");
  });

  it("strips every personal field of the tombstone, with a unique address nobody can receive mail at", () => {
    const fields = tombstoneFields("5C1E0B6A-0000-4000-8000-000000000001");
    expect(fields.email).toBe("erased-5c1e0b6a-0000-4000-8000-000000000001@erased.invalid");
    expect(tombstoneEmail("a")).not.toBe(tombstoneEmail("b"));
    expect(fields).toMatchObject({
      name: "",
      passwordHash: "!erased",
      phoneNumber: null,
      metadata: {},
      source: "erased",
    });
    expect(needlesOf({ ...fields, communicationEmail: null, identityEmails: [] })).toEqual({ emails: [], names: [] });
  });

  it("stops at the gateway what it still holds", () => {
    expect(needsGatewayStop({ status: "ACTIVE", gatewayState: null })).toBe(true);
    expect(needsGatewayStop({ status: "PENDING", gatewayState: null })).toBe(true);
    expect(needsGatewayStop({ status: "CANCELLED", gatewayState: "cancelling" })).toBe(true);
    expect(needsGatewayStop({ status: "CANCELLED", gatewayState: "ended" })).toBe(false);
    expect(needsGatewayStop({ status: "CANCELLED", gatewayState: null })).toBe(false);
    expect(needsGatewayStop({ status: "EXPIRED", gatewayState: null })).toBe(false);
  });

  it("has one table of steps: the gateway first, the identities and the member row last, names unique", () => {
    const names = ERASURE_STEPS.map((s) => s.name);
    expect(names[0]).toBe("gateway");
    expect(names.slice(-2)).toEqual(["identities", "member"]);
    expect(new Set(names).size).toBe(names.length);
    for (const step of ERASURE_STEPS) expect(step.what.length).toBeGreaterThan(20);
  });
});
