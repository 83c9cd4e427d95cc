/**
 * Settings → Languages, the account's side (owners; docs/dashboard.md): its default locale and the
 * locales it offers readers (./locale-settings.ts reads them).
 *
 * The default locale is the account's language setting (publisher_configs.language_iso_code,
 * language_ietf_code, language_direction, which GET /api/v1/config serves): choosing one writes all
 * three together (Arabic is right to left), keeping a more precise tag that names the same locale
 * ("hi-IN" for Hindi). Saving the page with the default unchanged leaves them as they are, even
 * when they name a language Masthead does not ship (its readers get English).
 *
 * A save that changes something, in one transaction: the PublisherConfig row, an audit entry
 * "languages.update" (what changed, from → to), and when the language changed, the CONTENT event
 * "config-update" with the purge key "config" (as Settings does). The database announces the
 * account's "messages" purge key for the answers that carry its messages (./messages-cache.ts).
 */
import "server-only";

import { directionOf, LOCALE_NAMES, LOCALES, matchLocale, type Locale } from "@/i18n/locales";
import { SURFACES } from "@/i18n/messages";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import { changedBy } from "../auth/changed-by";
import { hasAnyRole } from "../auth/roles";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { emitWebhookEvent } from "../webhooks/deliveries";
import { ZLanguageSettingsInput, type TLanguageSettingsInput, type TLanguagesView } from "./language-settings.schema";
import { accountLocalesFrom, type AccountLocales } from "./locale-settings";

/** The tag a locale writes when the account's tag names another one (a region where one is usual). */
const TAG_OF = new Map<Locale, string>([
  ["en", "en-US"],
  ["hi", "hi-IN"],
  ["ta", "ta-IN"],
  ["es", "es-ES"],
  ["fr", "fr-FR"],
  ["de", "de-DE"],
  ["pt-BR", "pt-BR"],
  ["ar", "ar"],
]);

type Language = TLanguagesView["language"];

/** The language setting that names `locale`: the account's own tag when it already does. */
export function languageOf(locale: Locale, current: Language): Language {
  const ietfCode = matchLocale(current.ietfCode) === locale ? current.ietfCode : (TAG_OF.get(locale) ?? locale);
  return { isoCode: locale.split("-")[0]!.toLowerCase(), ietfCode, direction: directionOf(locale) };
}

/** Only an owner changes what readers read (the Settings area's role). */
export function assertOwner(actor: StaffActor): void {
  if (!hasAnyRole(actor.roles, ["OWNER"]))
    throw new AppError("FORBIDDEN", "Only an owner can change the publication's languages.");
}

type Stored = { language: Language; localesOffered: string[]; locales: AccountLocales };

async function load(db: Db, accountId: number): Promise<Stored> {
  const config = await db.publisherConfig.findUnique({
    where: { accountId },
    select: { languageIsoCode: true, languageIetfCode: true, languageDirection: true, localesOffered: true },
  });
  const language: Language = {
    isoCode: config?.languageIsoCode ?? "en",
    ietfCode: config?.languageIetfCode ?? "en-US",
    direction: config?.languageDirection === "rtl" ? "rtl" : "ltr",
  };
  const localesOffered = config?.localesOffered ?? [];
  return {
    language,
    localesOffered,
    locales: accountLocalesFrom({
      languageIetfCode: language.ietfCode,
      languageIsoCode: language.isoCode,
      localesOffered,
    }),
  };
}

function toView(stored: Stored): TLanguagesView {
  return {
    ...stored.locales,
    language: stored.language,
    locales: LOCALES.map((locale) => ({
      locale,
      name: LOCALE_NAMES.get(locale) ?? locale,
      direction: directionOf(locale),
    })),
    surfaces: [...SURFACES],
  };
}

/** The Languages page's settings (owners only). */
export async function getLanguageSettings(db: Db, args: { actor: StaffActor }): Promise<TLanguagesView> {
  assertOwner(args.actor);
  return toView(await load(db, args.actor.accountId));
}

/** Save the default locale and the locales offered (owners only); see the header for what a change records. */
export async function updateLanguageSettings(
  db: Db,
  args: { actor: StaffActor; input: TLanguageSettingsInput; now?: Date },
): Promise<{ changed: string[]; view: TLanguagesView }> {
  const input = ZLanguageSettingsInput.parse(args.input);
  const { actor } = args;
  assertOwner(actor);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const before = await load(tx, actor.accountId);
    const defaultChanged = input.defaultLocale !== before.locales.defaultLocale;
    const language = defaultChanged ? languageOf(input.defaultLocale, before.language) : before.language;
    const offered = LOCALES.filter((l) => l === input.defaultLocale || input.offered.includes(l));
    const after = accountLocalesFrom({
      languageIetfCode: language.ietfCode,
      languageIsoCode: language.isoCode,
      localesOffered: offered,
    });
    const offeredChanged = after.offered.join() !== before.locales.offered.join();
    const changed = [...(defaultChanged ? ["defaultLocale"] : []), ...(offeredChanged ? ["offered"] : [])];
    if (changed.length === 0) return { changed, view: toView(before) };

    const data = {
      languageIsoCode: language.isoCode,
      languageIetfCode: language.ietfCode,
      languageDirection: language.direction,
      localesOffered: offered,
      updatedAt: now,
    };
    await tx.publisherConfig.upsert({
      where: { accountId: actor.accountId },
      // An account without its config row yet: the site URL and CDN host are Settings' (empty: the defaults).
      create: { accountId: actor.accountId, siteUrl: "", cdnImage: "", ...data },
      update: data,
      select: { accountId: true },
    });
    await recordAudit(tx, {
      actor,
      action: "languages.update",
      targetType: "locale_settings",
      targetId: actor.accountId,
      metadata: {
        changed,
        ...(defaultChanged
          ? {
              defaultLocale: { from: before.locales.defaultLocale, to: input.defaultLocale },
              language: { ...language },
            }
          : {}),
        ...(offeredChanged ? { offered: { from: before.locales.offered, to: after.offered } } : {}),
      },
      now,
    });
    if (defaultChanged) {
      await emitWebhookEvent(tx, {
        accountId: actor.accountId,
        kind: "CONTENT",
        name: "config-update",
        data: {
          changed: ["language"],
          "changed-by": await changedBy(tx, actor),
          "purge-keys": ["config"],
          "purge-all": false,
          "updated-at": now.getTime(),
        },
        occurredAt: now,
      });
    }
    return { changed, view: toView(await load(tx, actor.accountId)) };
  });
}
