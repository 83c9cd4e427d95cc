/**
 * The account's setting for an erased reader's comments: "keep" (the body stays, shown as by a
 * deleted reader) or "remove". The setting lives in the PrivacySettings table that the consent
 * part builds (server/privacy/consent); until the lead wires it at merge, every account keeps.
 */
import "server-only";

import type { Db } from "../../db/client";
import type { CommentsRule } from "./rules";

export async function erasedCommentsRule(db: Db, accountId: number): Promise<CommentsRule> {
  // The lead wires this at merge: read PrivacySettings.erasedComments of `accountId` through `db`.
  void db;
  void accountId;
  return "keep";
}
