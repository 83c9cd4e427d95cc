/**
 * An owner's own words (docs/i18n.md, "The newsroom's own words"): per account, surface, locale and
 * message key, winning over the catalogue. Saved only when the key exists, the text is plain (no
 * markup, no control characters, NFC), within 2,000 characters, parses as ICU MessageFormat and
 * asks only for arguments the message is given. Read back through the same check, so an override
 * of a key an upgrade removed, or whose arguments it changed, is left out (and listed as stale).
 */
import { z } from "zod";

import { argumentsOf, cleanOverride, messageProblem, parseMessage } from "@/i18n/icu";
import { LOCALES, type Locale } from "@/i18n/locales";
import { isMessageKey, messagesOf, SURFACES, type Surface } from "@/i18n/messages";
import { translator, type Translate } from "@/i18n/translate";

import { type Db } from "../db/client";

export const ZOverrideTarget = z.object({
  surface: z.enum(SURFACES as [Surface, ...Surface[]]),
  locale: z.enum(LOCALES),
  key: z.string().min(1).max(100),
});

export { cleanOverride };

/** Why `message` cannot be the override of `surface`/`key`, or null when it can (i18n/icu.ts messageProblem). */
export function overrideProblem(surface: Surface, key: string, message: string): string | null {
  if (!isMessageKey(surface, key)) return `"${key}" is not a message of the ${surface} catalogue.`;
  return messageProblem(message, argumentsOf(parseMessage(messagesOf(surface, "en").get(key) ?? "")));
}

type Override = { surface: Surface; locale: Locale; key: string; message: string; updatedAt: Date };

/** Every override of the account, each with whether it still fits the catalogue (`stale`: it is not used). */
export async function listOverrides(db: Db, accountId: number): Promise<(Override & { stale: string | null })[]> {
  const rows = await db.messageOverride.findMany({
    where: { accountId },
    orderBy: [{ surface: "asc" }, { locale: "asc" }, { key: "asc" }],
    select: { surface: true, locale: true, key: true, message: true, updatedAt: true },
  });
  return rows.flatMap((row) => {
    const target = ZOverrideTarget.safeParse(row);
    if (!target.success) return [];
    const { surface, locale, key } = target.data;
    return [
      {
        surface,
        locale,
        key,
        message: row.message,
        updatedAt: row.updatedAt,
        stale: overrideProblem(surface, key, row.message),
      },
    ];
  });
}

/** The overrides in force for one surface and locale (key → message), stale ones left out. */
export async function overridesFor(
  db: Db,
  accountId: number,
  surface: Surface,
  locale: Locale,
): Promise<ReadonlyMap<string, string>> {
  const rows = await db.messageOverride.findMany({
    where: { accountId, surface, locale },
    select: { key: true, message: true },
  });
  return new Map(
    rows.filter((r) => overrideProblem(surface, r.key, r.message) === null).map((r) => [r.key, r.message]),
  );
}

export class OverrideRefused extends Error {}

/** Saves (or replaces) an override after cleaning and checking it; throws OverrideRefused with the reason. */
export async function saveOverride(
  db: Db,
  accountId: number,
  target: z.infer<typeof ZOverrideTarget>,
  message: string,
  staffId: string | null,
): Promise<string> {
  const clean = cleanOverride(message);
  const problem = overrideProblem(target.surface, target.key, clean);
  if (problem) throw new OverrideRefused(problem);
  const where = { accountId_surface_locale_key: { accountId, ...target } };
  await db.messageOverride.upsert({
    where,
    create: { accountId, ...target, message: clean, updatedBy: staffId },
    update: { message: clean, updatedBy: staffId },
  });
  return clean;
}

export async function removeOverride(
  db: Db,
  accountId: number,
  target: z.infer<typeof ZOverrideTarget>,
): Promise<boolean> {
  const { count } = await db.messageOverride.deleteMany({ where: { accountId, ...target } });
  return count > 0;
}

/** The translator of one surface and locale with the account's overrides in force. */
export async function translatorFor<S extends Surface>(
  db: Db,
  accountId: number,
  surface: S,
  locale: Locale,
): Promise<Translate<S>> {
  return translator(surface, locale, await overridesFor(db, accountId, surface, locale));
}
