import { describe, expect, it } from "vitest";

import { addressBucket } from "./address";

describe("addressBucket", () => {
  it("counts an IPv4 address whole", () => {
    expect(addressBucket("203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket(" 203.0.113.9 ")).toBe("203.0.113.9");
  });

  it("counts every address of one IPv6 /64 as one, and other /64s apart", () => {
    const a = addressBucket("2001:db8:85a3:12::1");
    expect(a).toBe("2001:db8:85a3:12::/64");
    expect(addressBucket("2001:0DB8:85A3:0012:ffff:ffff:ffff:fffe")).toBe(a);
    expect(addressBucket("2001:db8:85a3:12:1234:5678:9abc:def0")).toBe(a);
    expect(addressBucket("2001:db8:85a3:13::1")).toBe("2001:db8:85a3:13::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
  });

  it("reads brackets, ports and zone ids as forwarded headers and link-local sockets give them", () => {
    expect(addressBucket("[2001:db8:85a3:12::1]")).toBe("2001:db8:85a3:12::/64");
    expect(addressBucket("[2001:db8:85a3:12::1]:443")).toBe("2001:db8:85a3:12::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("counts an IPv4 address written as IPv6 as that IPv4 address", () => {
    expect(addressBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket("::ffff:cb00:7109")).toBe("203.0.113.9");
    // An address that merely embeds dotted digits elsewhere is IPv6.
    expect(addressBucket("64:ff9b::203.0.113.9")).toBe("64:ff9b:0:0::/64");
  });

  it("keeps anything that is no address as it is, cut to 64 characters", () => {
    expect(addressBucket("untrusted")).toBe("untrusted");
    expect(addressBucket("unknown")).toBe("unknown");
    expect(addressBucket("not-an-ip")).toBe("not-an-ip");
    expect(addressBucket("x".repeat(100))).toBe("x".repeat(64));
    expect(addressBucket("2001:db8::1::2")).toBe("2001:db8::1::2");
  });
});
