/** The benchmark's baseline routes answer only when BENCH_ROUTES is on (npm run bench sets it). */
import { afterEach, describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";

import { GET as emptyWithId } from "./[id]/route";
import { GET as empty } from "./route";

const withId = () =>
  emptyWithId(new Request("http://test/api/bench/empty/7"), { params: Promise.resolve({ id: "7" }) });

afterEach(() => {
  delete process.env.BENCH_ROUTES;
  resetEnvCache();
});

describe("GET /api/bench/empty and /api/bench/empty/{id}", () => {
  it("answer 404 NOT_FOUND while BENCH_ROUTES is unset", async () => {
    for (const response of [empty(), await withId()]) {
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
  });

  it("answer {} when BENCH_ROUTES is on", async () => {
    process.env.BENCH_ROUTES = "true";
    resetEnvCache();
    for (const response of [empty(), await withId()]) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
  });
});
