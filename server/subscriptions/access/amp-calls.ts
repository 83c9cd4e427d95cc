/**
 * Who may call AMP's paywall endpoints (amp-access, amp-pingback; docs/subscriptions.md, "Who calls
 * the AMP endpoints"). The spec (§5) names the server key for them: header `X-SUBAUTH`, query
 * `key`, optional reader JWT. AMP pages call a first-party URL of the publisher, which forwards
 * to Masthead and adds `X-SUBAUTH`. So:
 *
 * - with `X-SUBAUTH`: it must be one of the account's live server keys (compared by digest in
 *   constant time, server/accounts/api-keys.ts), and a `key` sent beside it must be a client key
 *   of the same account; anything else is 401;
 * - without `X-SUBAUTH`: 401, unless the account's owner allowed direct calls (Settings, "AMP
 *   paywall calls"; `accounts.amp_direct_calls`, off by default), when the client key in `key`
 *   is enough (the reader's browser calls Masthead itself).
 */
import { authenticateClient, authenticateServerKey, type ApiAccount, type ApiUser } from "../../auth/api-auth";
import { ProcessCache } from "../../cache/process-cache";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";

/** Asked on every direct AMP call: kept per account, dropped by any write to accounts ("publisher"). */
const directCallsAllowed = new ProcessCache<number, boolean>("publisher", { ttlMs: 60_000, maxEntries: 10_000 });

function allowsDirectCalls(db: Db, accountId: number): Promise<boolean> {
  return directCallsAllowed.load(accountId, async () => {
    const row = await db.account.findUnique({ where: { id: accountId }, select: { ampDirectCalls: true } });
    return row?.ampDirectCalls ?? false;
  });
}

const NO_SERVER_KEY =
  "The X-SUBAUTH header is missing: AMP's paywall calls come through your site's first-party endpoint, which forwards them with the server key (or the account's owner allows direct calls in Settings).";

/**
 * The account (and the reader, when a JWT is sent) of an AMP paywall call; UNAUTHORIZED as above.
 * `userOf` verifies the optional reader JWT against the account found.
 */
export async function authenticateAmpCall(
  db: Db,
  args: {
    serverKey: string | null;
    query: URLSearchParams;
    userOf: (accountId: number) => Promise<ApiUser | null>;
  },
): Promise<{ account: ApiAccount; user: ApiUser | null }> {
  const { serverKey, query } = args;
  if (serverKey === null) {
    const { account } = await authenticateClient(db, query, { user: "none", cached: true });
    if (!(await allowsDirectCalls(db, account.id))) throw new AppError("UNAUTHORIZED", NO_SERVER_KEY);
    return { account, user: await args.userOf(account.id) };
  }
  const account = await authenticateServerKey(db, serverKey, new Date(), { cached: true });
  if (query.has("key")) {
    const client = await authenticateClient(db, query, { user: "none", cached: true });
    if (client.account.id !== account.id) {
      throw new AppError("UNAUTHORIZED", "The key parameter is not a client key of the X-SUBAUTH key's account.");
    }
  }
  return { account, user: await args.userOf(account.id) };
}
