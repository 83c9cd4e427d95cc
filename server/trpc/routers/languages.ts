/**
 * languages.* – Settings → Languages, for owners: the account's default locale and the locales it
 * offers readers, and its overrides of the catalogue's messages (server/i18n/language-settings.ts,
 * server/i18n/override-editor.ts).
 */
import { z } from "zod";

import { getLanguageSettings, updateLanguageSettings } from "../../i18n/language-settings";
import {
  ZLanguageSettingsInput,
  ZLanguagesView,
  ZMessagesInput,
  ZMessagesView,
  ZOverrideRow,
  ZSaveOverrideInput,
  ZUpdateLanguagesResult,
} from "../../i18n/language-settings.schema";
import {
  listAccountOverrides,
  listMessages,
  removeMessageOverride,
  saveMessageOverride,
} from "../../i18n/override-editor";
import { ZOverrideTarget } from "../../i18n/overrides";
import { createTRPCRouter, ownerProcedure } from "../trpc";

export const languagesRouter = createTRPCRouter({
  get: ownerProcedure
    .input(z.void())
    .output(ZLanguagesView)
    .query(({ ctx }) => getLanguageSettings(ctx.db, { actor: ctx.actor })),

  /** The default locale and the locales offered; answers what changed (none: nothing was written). */
  update: ownerProcedure
    .input(ZLanguageSettingsInput)
    .output(ZUpdateLanguagesResult)
    .mutation(({ ctx, input }) => updateLanguageSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** One surface's messages in one locale, with English and the account's overrides. */
  messages: ownerProcedure
    .input(ZMessagesInput)
    .output(ZMessagesView)
    .query(({ ctx, input }) => listMessages(ctx.db, { actor: ctx.actor, ...input })),

  /** Every override of the account, the stale ones with the reason they are not used. */
  overrides: ownerProcedure
    .input(z.void())
    .output(z.array(ZOverrideRow))
    .query(({ ctx }) => listAccountOverrides(ctx.db, { actor: ctx.actor })),

  saveOverride: ownerProcedure
    .input(ZSaveOverrideInput)
    .output(z.object({ message: z.string() }))
    .mutation(({ ctx, input: { message, ...target } }) =>
      saveMessageOverride(ctx.db, { actor: ctx.actor, target, message, now: new Date() }),
    ),

  removeOverride: ownerProcedure
    .input(ZOverrideTarget)
    .output(z.object({ removed: z.literal(true) }))
    .mutation(({ ctx, input }) => removeMessageOverride(ctx.db, { actor: ctx.actor, target: input, now: new Date() })),
});
