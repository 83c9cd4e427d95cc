import { describe, expect, it } from "vitest";

import { clickUrl, confirmUrl, isClickMacValid, openPixelUrl, unsubscribeUrl } from "./links";
import { newsletterTokenKey, verifyNewsletterToken } from "./tokens";

const key = newsletterTokenKey({ AUTH_SECRET: "links-test" });
const base = { baseUrl: "https://news.example/", key, accountId: 3 };

describe("newsletter links", () => {
  it("points one-click unsubscribe at the API route with a delivery or subscription token", () => {
    const byDelivery = unsubscribeUrl({ ...base, deliveryId: 99n });
    expect(byDelivery).toMatch(/^https:\/\/news\.example\/api\/newsletters\/unsubscribe\/delivery\.99\./);
    const t = byDelivery.split("/").at(-1)!;
    expect(verifyNewsletterToken(key, 3, t)).toEqual({ purpose: "delivery", id: "99" });
    expect(unsubscribeUrl({ ...base, subscriptionId: 5 })).toContain("/unsubscribe/unsubscribe.5.");
    const confirm = confirmUrl({ ...base, subscriptionId: 5, nonce: "request-a" });
    expect(confirm).toMatch(/^https:\/\/news\.example\/newsletters\/confirm\/confirm\.5\./);
    // Signed over the sign-up request's nonce: it verifies with that nonce only.
    const ct = confirm.split("/").at(-1)!;
    expect(verifyNewsletterToken(key, 3, ct, ["confirm"], "request-a")).toEqual({ purpose: "confirm", id: "5" });
    expect(verifyNewsletterToken(key, 3, ct, ["confirm"], "request-b")).toBeNull();
    expect(verifyNewsletterToken(key, 3, ct, ["confirm"])).toBeNull();
    expect(openPixelUrl({ ...base, deliveryId: 7 })).toContain("/api/newsletters/open/delivery.7.");
  });

  it("binds a redirected link to its URL and delivery", () => {
    const target = "https://news.example/story/a?x=1&y=2";
    const link = new URL(clickUrl({ ...base, deliveryId: 12n, url: target }));
    expect(link.pathname.startsWith("/api/newsletters/click/delivery.12.")).toBe(true);
    const u = link.searchParams.get("u")!;
    const h = link.searchParams.get("h")!;
    expect(u).toBe(target);
    expect(isClickMacValid({ key, accountId: 3, deliveryId: "12", url: u, h })).toBe(true);
    expect(isClickMacValid({ key, accountId: 3, deliveryId: "12", url: "https://evil.example/", h })).toBe(false);
    expect(isClickMacValid({ key, accountId: 3, deliveryId: "13", url: u, h })).toBe(false);
    expect(isClickMacValid({ key, accountId: 3, deliveryId: "12", url: u, h: h.slice(1) })).toBe(false);
  });
});
