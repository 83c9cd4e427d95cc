import { describe, expect, it } from "vitest";
import { z } from "zod";

import { zodIssuesToDetails } from "./errors";

describe("zodIssuesToDetails", () => {
  const details = (schema: z.ZodType, value: unknown, prefix?: string) => {
    const result = schema.safeParse(value);
    if (result.success) throw new Error("expected a failure");
    return zodIssuesToDetails(result.error, prefix);
  };

  it("names each field under its prefix, with zod's message", () => {
    expect(details(z.object({ name: z.string() }), { name: 1 }, "body")).toEqual([
      { field: "body.name", issue: "Invalid input: expected string, received number" },
    ]);
    expect(details(z.string(), 1, "query")).toEqual([
      { field: "query", issue: "Invalid input: expected string, received number" },
    ]);
  });

  it("says a coerced number that is missing or not one is that, not 'received NaN'", () => {
    const schema = z.object({ plan_id: z.coerce.number().int() });
    for (const value of [{}, { plan_id: "abc" }]) {
      expect(details(schema, value, "body")).toEqual([
        { field: "body.plan_id", issue: "must be a number (it is missing or is not one)" },
      ]);
    }
  });
});
