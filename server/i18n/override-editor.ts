/**
 * Settings → Languages, the overrides editor (owners; docs/i18n.md "The newsroom's own words"):
 * a surface's messages in one locale beside English, the catalogue's words and the account's
 * override; saving and removing an override through ./overrides.ts, each in a transaction with its
 * audit entry ("message_override.save", "message_override.remove": the message from → to). The
 * database announces the account's "messages" purge key at the commit (./messages-cache.ts).
 */
import "server-only";

import { argumentsOf, parseMessage, selectOptionsOf } from "@/i18n/icu";
import { directionOf, type Locale } from "@/i18n/locales";
import { isMessageKey, messagesOf, type Surface } from "@/i18n/messages";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { graphemePrefix } from "../text/graphemes";
import { assertOwner } from "./language-settings";
import type { TMessageArgument, TMessageRow, TOverrideRow } from "./language-settings.schema";
import { listOverrides, overrideProblem, OverrideRefused, removeOverride, saveOverride } from "./overrides";

type Target = { surface: Surface; locale: Locale; key: string };

/** What the audit log keeps of a message: enough to recognise it, never the whole of a long one. */
const AUDIT_TEXT_LIMIT = 300;
const auditText = (message: string | null) =>
  message === null || message.length <= AUDIT_TEXT_LIMIT ? message : `${graphemePrefix(message, AUDIT_TEXT_LIMIT)}…`;

function argumentsOfMessage(english: string): TMessageArgument[] {
  const elements = parseMessage(english);
  const options = selectOptionsOf(elements);
  return [...argumentsOf(elements)].map(([name, kind]) => ({ name, kind, options: options.get(name) ?? [] }));
}

/** Every message of `surface` with its English, the catalogue's words in `locale` and the account's override. */
export async function listMessages(
  db: Db,
  args: { actor: StaffActor; surface: Surface; locale: Locale },
): Promise<{ surface: Surface; locale: Locale; direction: "ltr" | "rtl"; messages: TMessageRow[] }> {
  const { actor, surface, locale } = args;
  assertOwner(actor);
  const rows = await db.messageOverride.findMany({
    where: { accountId: actor.accountId, surface, locale },
    select: { key: true, message: true },
  });
  const overrides = new Map(rows.map((r) => [r.key, r.message]));
  const catalogue = messagesOf(surface, locale);
  const messages = [...messagesOf(surface, "en")].map(([key, english]): TMessageRow => {
    const override = overrides.get(key) ?? null;
    return {
      key,
      english,
      catalogue: catalogue.get(key) ?? english,
      override,
      stale: override === null ? null : overrideProblem(surface, key, override),
      arguments: argumentsOfMessage(english),
    };
  });
  return { surface, locale, direction: directionOf(locale), messages };
}

/** Every override of the account, those no longer used with the reason (owners only). */
export async function listAccountOverrides(db: Db, args: { actor: StaffActor }): Promise<TOverrideRow[]> {
  assertOwner(args.actor);
  return listOverrides(db, args.actor.accountId);
}

/**
 * Save an override; a refusal is UNPROCESSABLE with its reason as the detail of `message` (of `key`
 * when the catalogue has no such message), and nothing is written.
 */
export async function saveMessageOverride(
  db: Db,
  args: { actor: StaffActor; target: Target; message: string; now?: Date },
): Promise<{ message: string }> {
  const { actor, target } = args;
  assertOwner(actor);
  return withTransaction(db, async (tx) => {
    const where = { accountId_surface_locale_key: { accountId: actor.accountId, ...target } };
    const before = await tx.messageOverride.findUnique({ where, select: { message: true } });
    let message: string;
    try {
      message = await saveOverride(tx, actor.accountId, target, args.message, actor.id);
    } catch (error) {
      if (!(error instanceof OverrideRefused)) throw error;
      const field = isMessageKey(target.surface, target.key) ? "message" : "key";
      throw new AppError("UNPROCESSABLE", error.message, { details: [{ field, issue: error.message }] });
    }
    if (before?.message !== message) {
      await recordAudit(tx, {
        actor,
        action: "message_override.save",
        targetType: "message_override",
        targetId: `${target.surface}/${target.locale}/${target.key}`,
        metadata: { ...target, message: { from: auditText(before?.message ?? null), to: auditText(message) } },
        now: args.now,
      });
    }
    return { message };
  });
}

/** Remove an override (a stale one too: its key may be gone from the catalogue); NOT_FOUND when there is none. */
export async function removeMessageOverride(
  db: Db,
  args: { actor: StaffActor; target: Target; now?: Date },
): Promise<{ removed: true }> {
  const { actor, target } = args;
  assertOwner(actor);
  return withTransaction(db, async (tx) => {
    const where = { accountId_surface_locale_key: { accountId: actor.accountId, ...target } };
    const before = await tx.messageOverride.findUnique({ where, select: { message: true } });
    if (!before || !(await removeOverride(tx, actor.accountId, target)))
      throw new AppError("NOT_FOUND", `There is no override of ${target.key} in ${target.surface} (${target.locale}).`);
    await recordAudit(tx, {
      actor,
      action: "message_override.remove",
      targetType: "message_override",
      targetId: `${target.surface}/${target.locale}/${target.key}`,
      metadata: { ...target, message: { from: auditText(before.message), to: null } },
      now: args.now,
    });
    return { removed: true };
  });
}
