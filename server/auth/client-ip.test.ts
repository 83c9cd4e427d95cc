/**
 * The dashboard sign-in's client IP (clientIpFromHeaders): the first X-Forwarded-For entry behind
 * a trusted proxy; otherwise the socket's address scripts/serve.mjs recorded, and only where it
 * runs the process (a client's own copy of that header counts for nothing).
 */
import { afterEach, describe, expect, it } from "vitest";

import { PEER_ADDRESS_HEADER } from "../security/peer-address.js";
import { clientIpFromHeaders } from "./credentials";

const served = globalThis as { mastheadSetsPeerAddress?: boolean };

afterEach(() => {
  delete served.mastheadSetsPeerAddress;
});

describe("clientIpFromHeaders", () => {
  it("takes the first X-Forwarded-For entry (or X-Real-IP) behind a trusted proxy", () => {
    const headers = { "x-forwarded-for": "203.0.113.7, 10.0.0.2", [PEER_ADDRESS_HEADER]: "10.0.0.2" };
    served.mastheadSetsPeerAddress = true;
    expect(clientIpFromHeaders(headers, true)).toBe("203.0.113.7");
    expect(clientIpFromHeaders(new Headers({ "x-real-ip": "198.51.100.4" }), true)).toBe("198.51.100.4");
  });

  it("takes the socket's address serve.mjs recorded when no proxy is trusted, whatever X-Forwarded-For says", () => {
    served.mastheadSetsPeerAddress = true;
    const forged = { "x-forwarded-for": "1.2.3.4", [PEER_ADDRESS_HEADER]: "192.0.2.10" };
    expect(clientIpFromHeaders(forged, false)).toBe("192.0.2.10");
    expect(clientIpFromHeaders(new Headers(forged), false)).toBe("192.0.2.10");
  });

  it("ignores the peer header where serve.mjs does not run (a client's copy), as before", () => {
    const headers = { "x-forwarded-for": "1.2.3.4, 198.51.100.9", [PEER_ADDRESS_HEADER]: "6.6.6.6" };
    expect(clientIpFromHeaders(headers, false)).toBe("198.51.100.9");
    expect(clientIpFromHeaders({ [PEER_ADDRESS_HEADER]: "6.6.6.6" }, false)).toBeNull();
  });
});
