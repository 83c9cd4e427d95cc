/** The rate-limit rules a route declares (route.ts `rateLimit`), and whom each counts. */
import { addressBucket } from "../rate-limit/address";

/**
 * What a rate-limit rule counts by:
 * - "ip": the caller's IP; "key": the account (its key, or the publisher); "ip+key": both;
 * - "reader": the signed-in reader (the user of a publisher-signed JWT, or a member session),
 *   per account; requests without one are not counted by this rule;
 * - "guest": the IP, counting only requests without a signed-in reader (guests get a tighter
 *   limit than the route's "ip" rule).
 */
type RateLimitBy = "ip" | "key" | "ip+key" | "reader" | "guest";
export type RouteRateLimit = { name: string; limit: number; windowSeconds: number; by: RateLimitBy };

/**
 * The identity a rule counts a request under, or null when the rule does not apply to it
 * ("reader" without a reader, "guest" with one).
 */
export function rateLimitIdentity(
  by: RateLimitBy,
  request: { ip: string; accountId: number | undefined; reader: string | null },
): string | null {
  const key = request.accountId === undefined ? "anonymous" : String(request.accountId);
  switch (by) {
    case "ip":
      return addressBucket(request.ip);
    case "key":
      return key;
    case "ip+key":
      return `${key}:${addressBucket(request.ip)}`;
    case "reader":
      return request.reader === null ? null : `${key}:${request.reader}`;
    case "guest":
      return request.reader === null ? addressBucket(request.ip) : null;
  }
}
