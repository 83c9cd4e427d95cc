/**
 * The query of GET /api/access/v1/messages (docs/subscriptions.md, "Browser SDK"): the account's
 * client key, and the reader's language as the page says it: `locale` (the SDK's explicit option)
 * and `lang` (the page's, or the card form's container's, lang attribute). Each is a BCP 47 tag;
 * one that is not a tag is refused (400), one that no offered locale matches is passed over.
 */
import { z } from "zod";

/** A language tag as i18n/locales.ts reads one ("hi", "pt-BR", "es_MX"), or "": as sent (undefined: not sent). */
export const ZLanguageTagText = z
  .string()
  .trim()
  .regex(
    /^(?=.{0,35}$)(?:[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)?$/,
    "is not a language tag such as hi, ta-IN or pt-BR (at most 35 characters)",
  )
  .optional();

/** The same, null when not sent or empty. */
export const ZLanguageTag = ZLanguageTagText.transform((v) => v || null);

export const ZSdkMessagesQuery = z.object({
  key: z.string().optional(),
  locale: ZLanguageTag,
  lang: ZLanguageTag,
});
export type TSdkMessagesQuery = z.infer<typeof ZSdkMessagesQuery>;
