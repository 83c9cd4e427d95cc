import { describe, expect, it } from "vitest";

import { channelOfSource, newsletterPurpose, notificationPurpose, ZConsentPurpose } from "./consent.schema";

describe("consent purposes and channels", () => {
  it("accepts the purposes the writers use and nothing else", () => {
    for (const ok of [newsletterPurpose(12), notificationPurpose("replies"), "list:newsletter"]) {
      expect(ZConsentPurpose.safeParse(ok).success).toBe(true);
    }
    for (const bad of ["newsletter:0", "newsletter:constructor", "notification:all", "list:", "__proto__", ""]) {
      expect(ZConsentPurpose.safeParse(bad).success).toBe(false);
    }
  });

  it("maps the newsletter code's source words to channels", () => {
    expect(channelOfSource("widget")).toBe("widget");
    expect(channelOfSource("self_service")).toBe("member_page");
    expect(channelOfSource("dashboard")).toBe("staff");
    expect(channelOfSource("one_click")).toBe("unsubscribe_link");
    expect(channelOfSource("link")).toBe("unsubscribe_link");
    expect(channelOfSource("import:csv")).toBe("import");
    expect(channelOfSource("complaint")).toBe("complaint");
    expect(channelOfSource("constructor")).toBe("api");
  });
});
