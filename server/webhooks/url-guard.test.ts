import { describe, expect, it } from "vitest";

import { assertPublicUrl, guardedLookup, isPrivateAddress } from "./url-guard";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "ff02::1",
    "64:ff9b::a00:1",
    "not-an-ip",
  ])("refuses %s", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "allows %s",
    (ip) => {
      expect(isPrivateAddress(ip)).toBe(false);
    },
  );
});

describe("assertPublicUrl", () => {
  it("refuses literal and resolved private addresses", async () => {
    await expect(assertPublicUrl("http://127.0.0.1:8080/hook", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(assertPublicUrl("http://[::1]/hook", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(assertPublicUrl("http://localhost/hook", false)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(assertPublicUrl("http://169.254.169.254/latest/meta-data", false)).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
  });

  it("lets an operator allow them", async () => {
    await expect(assertPublicUrl("http://127.0.0.1:8080/hook", true)).resolves.toBeUndefined();
  });

  it("refuses at connection time through the guarded lookup", async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<Error | null>((resolve) => lookup("localhost", {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/private or reserved/);
    const allowed = await new Promise<string>((resolve) =>
      guardedLookup(true)("localhost", {}, (_e, a) => resolve(typeof a === "string" ? a : (a[0]?.address ?? ""))),
    );
    expect(allowed).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

// ─── Hostile-input corpus: every notation of a private address ────────────────────────────────

/** Loopback, private, link-local (cloud metadata), CGNAT, benchmarking, multicast, broadcast… as IPv4 and wrapped in IPv6. */
const BLOCKED_ADDRESSES = [
  // IPv4
  "127.0.0.1",
  "0.0.0.0",
  "169.254.169.254",
  "100.64.0.1",
  "100.127.255.254",
  "198.18.0.1",
  "198.19.255.255",
  "192.0.0.8",
  "192.0.2.1",
  "240.0.0.1",
  "255.255.255.255",
  "224.0.0.251",
  // IPv4-mapped, in both notations
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::FFFF:7F00:0001",
  "0:0:0:0:0:ffff:7f00:1",
  "::ffff:a9fe:a9fe",
  "::ffff:169.254.169.254",
  "::ffff:a00:1",
  "::ffff:0:0",
  // IPv4-compatible (deprecated ::a.b.c.d)
  "::127.0.0.1",
  "::7f00:1",
  "::a9fe:a9fe",
  "::a00:1",
  // IPv4-translated (RFC 6145)
  "::ffff:0:7f00:1",
  "::ffff:0:a9fe:a9fe",
  // NAT64, well-known and local-use prefixes
  "64:ff9b::7f00:1",
  "64:ff9b::127.0.0.1",
  "64:ff9b::a9fe:a9fe",
  "64:ff9b:1::a9fe:a9fe",
  "64:ff9b:1:a9fe:a9:fe00::",
  // 6to4 of private IPv4
  "2002:7f00:1::",
  "2002:a9fe:a9fe::1",
  "2002:c0a8:101::1",
  // Teredo: client 127.0.0.1 (stored inverted), or a private server
  "2001:0:4136:e378:8000:63bf:80ff:fffe",
  "2001:0:a00:1:8000:63bf:f7f7:f7f7",
  // IPv6 ranges
  "::",
  "::1",
  "fc00::1",
  "fdff:ffff::1",
  "fe80::1",
  "fe80::1%eth0",
  "febf::1",
  "ff02::1",
  "ff0e::1",
  "2001:db8::1",
  "100::1",
  "[::1]",
];

describe("isPrivateAddress against the hostile-input corpus", () => {
  it("refuses private and reserved addresses in every notation, including IPv4 embedded in IPv6", () => {
    expect(BLOCKED_ADDRESSES.filter((ip) => !isPrivateAddress(ip))).toEqual([]);
  });

  it("classifies the IPv4 embedded in IPv6 transition addresses: public ones pass", () => {
    const publicOnes = [
      "::ffff:808:808",
      "64:ff9b::808:808",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
      "2606:4700:4700::1111",
    ];
    expect(publicOnes.filter((ip) => isPrivateAddress(ip))).toEqual([]);
  });
});

/** URLs whose host is private in some notation the WHATWG parser normalises (decimal, octal, hex, short, IDNA digits). */
const BLOCKED_URLS = [
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]:8080/hook",
  "http://[0:0:0:0:0:ffff:127.0.0.1]/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://[::127.0.0.1]/",
  "http://[64:ff9b::169.254.169.254]/",
  "http://[2002:a9fe:a9fe::]/",
  "http://2130706433/",
  "http://0x7f.1/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "http://127.0.0.1./",
  "http://%31%32%37.0.0.1/",
  "http://\u2460\u2461\u2466.0.0.1/",
  "http://0/",
  "http://0.0.0.0/",
  "http://[::]/",
  "http://[::1]:3000/",
  "http://localhost/",
  "http://LOCALHOST./",
  "http://foo.localhost/",
  "http://a.b.localhost:8080/hook",
  "http://[fc00::1]/",
  "http://[fd12:3456::1]/",
  "http://[fe80::1]/",
  "http://[ff02::1]/",
  "http://224.0.0.1/",
  "http://100.64.0.1/",
  "http://198.18.0.1/",
  "http://255.255.255.255/",
  "http://169.254.169.254/latest/meta-data",
  "https://10.0.0.1/",
  "https://192.168.1.1/",
  "https://172.16.0.1/",
];

describe("assertPublicUrl against the hostile-input corpus", () => {
  it("refuses every notation of a private host without asking DNS", async () => {
    const noDns = () => Promise.reject(new Error("DNS must not be asked about a literal or localhost"));
    const passed: string[] = [];
    for (const url of BLOCKED_URLS) {
      const refused = await assertPublicUrl(url, false, { lookup: noDns }).then(
        () => false,
        (error: unknown) => (error as { code?: string }).code === "UNPROCESSABLE",
      );
      if (!refused) passed.push(url);
    }
    expect(passed).toEqual([]);
  });

  it("refuses a name whose DNS answer is a private address in IPv6 form", async () => {
    const lookup = () => Promise.resolve([{ address: "::ffff:7f00:1", family: 6 }]);
    await expect(assertPublicUrl("https://rebind.example/hook", false, { lookup })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      details: [{ field: "url", issue: expect.stringMatching(/private/) as unknown }],
    });
  });
});

describe("guardedLookup against the hostile-input corpus", () => {
  const answer =
    (address: string, family: number) =>
    (_host: string, _options: object, callback: (e: null, a: { address: string; family: number }[]) => void) =>
      callback(null, [{ address, family }]);

  it.each([
    ["::ffff:7f00:1", 6],
    ["::7f00:1", 6],
    ["64:ff9b::a9fe:a9fe", 6],
    ["2002:a9fe:a9fe::", 6],
  ])("refuses the socket's DNS answer %s", async (address, family) => {
    const lookup = guardedLookup(false, answer(address, family));
    const error = await new Promise<Error | null>((resolve) => lookup("rebind.example", {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/private or reserved/);
  });
});
