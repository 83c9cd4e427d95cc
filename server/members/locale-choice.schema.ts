/** PUT /api/member/locale (docs/i18n.md): the reader's language for the member pages and mail. */
import { z } from "zod";

import { LOCALES } from "@/i18n/locales";

/** `{locale}`: one of the shipped locales, or null to follow the browser again; nothing else. */
export const ZMemberLocaleInput = z.strictObject({
  locale: z.enum(LOCALES, { error: `must be one of ${LOCALES.join(", ")}, or null` }).nullable(),
});
