/**
 * The account's setting for an erased reader's comments (Settings → Privacy): "keep" (the body
 * stays, shown as by a deleted reader) or "remove"; an account that never chose keeps.
 */
import "server-only";

import type { Db } from "../../db/client";
import { privacySettingsOf } from "../retention/privacy-settings";
import type { CommentsRule } from "./rules";

export async function erasedCommentsRule(db: Db, accountId: number): Promise<CommentsRule> {
  return (await privacySettingsOf(db, accountId)).erasedReaderComments;
}
