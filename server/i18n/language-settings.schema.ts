/**
 * Settings → Languages (docs/dashboard.md): the account's default locale and the locales it offers,
 * and the owner's overrides of the catalogue's messages. The dashboard imports only the types: the
 * override schemas name the catalogue's surfaces, which the browser has no use for.
 */
import { z } from "zod";

import { MAX_OVERRIDE_LENGTH } from "@/i18n/icu";
import { LOCALES } from "@/i18n/locales";

import { ZOverrideTarget } from "./overrides";

const zLocale = z.enum(LOCALES);

export const ZLanguageSettingsInput = z.object({
  defaultLocale: zLocale,
  /** Ticked in the page; the default is offered whether it is listed or not. */
  offered: z
    .array(zLocale)
    .max(LOCALES.length)
    .refine((list) => new Set(list).size === list.length, "lists a locale twice"),
});
export type TLanguageSettingsInput = z.infer<typeof ZLanguageSettingsInput>;

export const ZLanguagesView = z.object({
  defaultLocale: zLocale,
  offered: z.array(zLocale),
  /** What the account's language setting says (Settings → Language); the default locale writes it. */
  language: z.object({ isoCode: z.string(), ietfCode: z.string(), direction: z.enum(["ltr", "rtl"]) }),
  locales: z.array(z.object({ locale: zLocale, name: z.string(), direction: z.enum(["ltr", "rtl"]) })),
  surfaces: z.array(z.string()),
});
export type TLanguagesView = z.infer<typeof ZLanguagesView>;

export const ZUpdateLanguagesResult = z.object({ changed: z.array(z.string()), view: ZLanguagesView });

export const ZMessagesInput = ZOverrideTarget.pick({ surface: true, locale: true });

const ZMessageArgument = z.object({
  name: z.string(),
  /** "argument" (text), "plural", "select", "number", "date", "time"… as the English message uses it. */
  kind: z.string(),
  /** A select's option keys. */
  options: z.array(z.string()),
});
export type TMessageArgument = z.infer<typeof ZMessageArgument>;

export const ZMessageRow = z.object({
  key: z.string(),
  english: z.string(),
  /** The catalogue's message in the locale. */
  catalogue: z.string(),
  /** The account's override in the locale, if any. */
  override: z.string().nullable(),
  /** Why the override is not used (it no longer fits the message), or null. */
  stale: z.string().nullable(),
  arguments: z.array(ZMessageArgument),
});
export type TMessageRow = z.infer<typeof ZMessageRow>;

export const ZMessagesView = z.object({
  surface: z.string(),
  locale: zLocale,
  direction: z.enum(["ltr", "rtl"]),
  messages: z.array(ZMessageRow),
});

export const ZOverrideRow = z.object({
  surface: z.string(),
  locale: zLocale,
  key: z.string(),
  message: z.string(),
  updatedAt: z.date(),
  stale: z.string().nullable(),
});
export type TOverrideRow = z.infer<typeof ZOverrideRow>;

/** Longer than an override may be, so that the refusal (with its reason) comes from the rule, not the edge. */
export const ZSaveOverrideInput = ZOverrideTarget.extend({ message: z.string().max(MAX_OVERRIDE_LENGTH * 4) });
