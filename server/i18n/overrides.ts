/**
 * An owner's own words (docs/i18n.md, "The newsroom's own words"): per account, surface, locale and
 * message key, winning over the catalogue. Saved only when the key exists, the text is plain (no
 * markup, no control characters, NFC), within 2,000 characters, parses as ICU MessageFormat and
 * asks only for arguments the message is given. Read back through the same check, so an override
 * of a key an upgrade removed, or whose arguments it changed, is left out (and listed as stale).
 */
import { z } from "zod";

import { LOCALES, type Locale } from "@/i18n/locales";
import { argumentsOf, isMessageKey, messagesOf, parseMessage, SURFACES, type Surface } from "@/i18n/messages";
import { translator, type Translate } from "@/i18n/translate";

import { type Db } from "../db/client";

export const MAX_OVERRIDE_LENGTH = 2000;

export const ZOverrideTarget = z.object({
  surface: z.enum(SURFACES as [Surface, ...Surface[]]),
  locale: z.enum(LOCALES),
  key: z.string().min(1).max(100),
});

/** Plain text: NFC, line ends as \n, no control characters but \n and \t, trimmed. */
export function cleanOverride(message: string): string {
  return message
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "")
    .trim();
}

/** Why `message` cannot be the override of `surface`/`key`, or null when it can. */
export function overrideProblem(surface: Surface, key: string, message: string): string | null {
  if (!isMessageKey(surface, key)) return `"${key}" is not a message of the ${surface} catalogue.`;
  if (!message) return "The message is empty: remove the override to use the catalogue's words.";
  if (message.length > MAX_OVERRIDE_LENGTH) return `The message is longer than ${MAX_OVERRIDE_LENGTH} characters.`;
  if (/<\/?[a-z!?][^>]*>/i.test(message)) return "Messages are plain text: markup such as <b> is not allowed.";
  let args: Map<string, string>;
  try {
    args = argumentsOf(parseMessage(message));
  } catch (error) {
    return `The message does not parse as ICU MessageFormat (${(error as Error).message}).`;
  }
  const allowed = argumentsOf(parseMessage(messagesOf(surface, "en").get(key) ?? ""));
  for (const name of args.keys()) {
    if (!allowed.has(name)) {
      const names = [...allowed.keys()].map((n) => `{${n}}`).join(", ") || "none";
      return `{${name}} is not given to this message (its arguments: ${names}).`;
    }
  }
  return null;
}

export type Override = { surface: Surface; locale: Locale; key: string; message: string; updatedAt: Date };

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
