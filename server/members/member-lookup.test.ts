import { describe, expect, it } from "vitest";

import { memberLookupConditions } from "./member-lookup";

describe("the members' lookup", () => {
  it("matches parts of e-mails, name, username, phone and identities, with LIKE wildcards as themselves", () => {
    const or = memberLookupConditions("ada_%");
    const contains = { contains: "ada\\_\\%", mode: "insensitive" };
    expect(or).toEqual([
      { email: contains },
      { communicationEmail: contains },
      { name: contains },
      { username: contains },
      { phoneNumber: contains },
      { identities: { some: { externalId: contains } } },
    ]);
  });

  it("adds a member id (123 or #123, within PostgreSQL's integer) and provider:identity", () => {
    expect(memberLookupConditions("#42")).toContainEqual({ id: 42 });
    expect(memberLookupConditions("42")).toContainEqual({ id: 42 });
    expect(memberLookupConditions("2147483648")).not.toContainEqual({ id: 2147483648 });
    expect(memberLookupConditions("publisher:abc")).toContainEqual({
      identities: { some: { provider: "publisher", externalId: "abc" } },
    });
    // The sign-in e-mail, or a further e-mail the subscriber holds.
    expect(memberLookupConditions("Email:Ada@Example.com")).toContainEqual({
      OR: [
        { email: "ada@example.com" },
        { identities: { some: { provider: "email", externalId: "ada@example.com" } } },
      ],
    });
  });
});
