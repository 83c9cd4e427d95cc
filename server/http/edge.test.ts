import { describe, expect, it } from "vitest";

import { edgeRefusal } from "./edge";

describe("edge refusals", () => {
  it("refuses methods no route serves with 405 and the Allow list", () => {
    for (const method of ["TRACE", "CONNECT", "PROPFIND", "track", "FOO"]) {
      const error = edgeRefusal(method, "/api/v1/stories");
      expect(error?.code).toBe("METHOD_NOT_ALLOWED");
      expect(error?.headers?.Allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    }
    for (const method of ["GET", "head", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
      expect(edgeRefusal(method, "/api/v1/stories")).toBeNull();
  });

  it("refuses a path whose percent-encoding does not decode with 400, and lets good encodings through", () => {
    for (const path of [
      "/api/v1/stories/%E0%A4%A",
      "/api/v1/tags/%",
      "/api/v1/tags/%zz",
      "/api/v1/custom-urls/%C0%AF",
      "/images/%ED%A0%80",
      "/admin/content/stories/%E0%A4%A",
    ]) {
      const error = edgeRefusal("GET", path);
      expect(error?.code).toBe("BAD_REQUEST");
      expect(error?.details).toEqual([{ field: "path", issue: "malformed percent-encoding" }]);
    }
    for (const path of ["/api/v1/custom-urls/%2Fold%2Fpage", "/api/v1/tags/caf%C3%A9", "/api/v1/stories"])
      expect(edgeRefusal("GET", path)).toBeNull();
  });

  it("leaves the methods of pages outside /api/ to the framework", () => {
    expect(edgeRefusal("PROPFIND", "/admin")).toBeNull();
  });
});
