import { describe, expect, it } from "vitest";

import { assertPublicUrl, guardedLookup, isPrivateAddress } from "./url-guard";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "ff02::1", "64:ff9b::a00:1", "not-an-ip",
  ])("refuses %s", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe("assertPublicUrl", () => {
  it("refuses literal and resolved private addresses", async () => {
    await expect(assertPublicUrl("http://127.0.0.1:8080/hook", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(assertPublicUrl("http://[::1]/hook", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(assertPublicUrl("http://localhost/hook", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(assertPublicUrl("http://169.254.169.254/latest/meta-data", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
  });

  it("lets an operator allow them", async () => {
    await expect(assertPublicUrl("http://127.0.0.1:8080/hook", true)).resolves.toBeUndefined();
  });

  it("refuses at connection time through the guarded lookup", async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<Error | null>((resolve) => lookup("localhost", {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/private or reserved/);
    const allowed = await new Promise<string>((resolve) => guardedLookup(true)("localhost", {}, (_e, a) => resolve(typeof a === "string" ? a : (a[0]?.address ?? ""))));
    expect(allowed).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
