/** How the self-service page learns a JWT reader (self-service-api.ts): the address's fragment, or a message of the publication. */
import { describe, expect, it } from "vitest";

import { readerFromHash, readerFromMessage } from "./self-service-api";

describe("readerFromHash", () => {
  it("reads key and jwt (or svc_jwt) from the fragment, and nothing else", () => {
    expect(readerFromHash("#key=pk_1&jwt=a.b.c")).toEqual({ key: "pk_1", jwt: "a.b.c" });
    expect(readerFromHash("#key=pk_1&svc_jwt=a.b.c")).toEqual({ key: "pk_1", jwt: "a.b.c" });
    expect(readerFromHash("#payment-12")).toBeNull();
    expect(readerFromHash("#key=pk_1")).toBeNull();
    expect(readerFromHash("")).toBeNull();
  });
});

describe("readerFromMessage", () => {
  const data = { action: "masthead_self_service_login", key: "pk_1", jwt: "a.b.c" };
  const hosts = ["www.gazette.example"];

  it("takes the login message from the publication's own hosts", () => {
    expect(readerFromMessage({ origin: "https://www.gazette.example", data }, hosts)).toEqual({
      key: "pk_1",
      jwt: "a.b.c",
    });
  });

  it("ignores another site, another message, and a malformed one", () => {
    expect(readerFromMessage({ origin: "https://evil.example", data }, hosts)).toBeNull();
    expect(
      readerFromMessage({ origin: "https://www.gazette.example", data: { ...data, action: "other" } }, hosts),
    ).toBeNull();
    expect(readerFromMessage({ origin: "https://www.gazette.example", data: { ...data, jwt: 42 } }, hosts)).toBeNull();
    expect(readerFromMessage({ origin: "null", data }, hosts)).toBeNull();
    expect(readerFromMessage({ origin: "https://www.gazette.example", data: null }, hosts)).toBeNull();
  });
});
