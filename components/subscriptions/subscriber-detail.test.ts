import { describe, expect, it } from "vitest";

import { subscriberDetail } from "./subscriber-detail";

describe("subscriberDetail", () => {
  it("shows the e-mail when there is one", () => {
    expect(subscriberDetail({ email: "ada@example.com", subscriber_identities: [] })).toBe("ada@example.com");
  });

  it("names a JWT reader without an e-mail by their publisher login id", () => {
    expect(
      subscriberDetail({
        email: null,
        subscriber_identities: [
          { provider: "platform", value: "p-1" },
          { provider: "publisher", value: "reader-42" },
        ],
      }),
    ).toBe("No e-mail · Publisher login (JWT) id: reader-42 (+1 more)");
    expect(subscriberDetail({ email: null, subscriber_identities: [{ provider: "constructor", value: "x" }] })).toBe(
      "No e-mail · constructor id: x",
    );
    expect(subscriberDetail({ email: null, subscriber_identities: [] })).toBe("No e-mail or login on record");
  });
});
