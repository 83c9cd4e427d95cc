/**
 * staff.* – the Users & keys page, for owners: dashboard users (add or invite, roles, disable,
 * enable, password reset e-mail), the account's editorial rules (no self-approval) and its API
 * keys (listed by prefix, created, rotated, revoked).
 */
import { z } from "zod";

import { createNamedApiKey, listApiKeys, revokeApiKey, rotateApiKey } from "../../accounts/api-key-admin";
import {
  ZApiKeyView,
  ZCreateApiKeyInput,
  ZCreatedApiKey,
  ZRevokeApiKeyInput,
  ZRotateApiKeyInput,
  ZRotatedApiKey,
} from "../../accounts/api-keys.schema";
import { createAdminUser, disableAdminUser, enableAdminUser, listStaff, setAdminRoles } from "../../auth/staff";
import { sendAdminPasswordReset } from "../../auth/staff-passwords";
import {
  ZCreateAdminUserInput,
  ZDisableAdminUserInput,
  ZEnableAdminUserInput,
  ZSendAdminPasswordResetInput,
  ZSetAdminRolesInput,
  ZStaffChangeResult,
  ZStaffMemberView,
} from "../../auth/staff.schema";
import { getEditorialRules, setEditorialRules } from "../../publishing/editorial/authorship";
import { ZEditorialRules, ZEditorialRulesInput } from "../../publishing/editorial/authorship.schema";
import { appUrl, createTRPCRouter, ownerProcedure } from "../trpc";

export const staffRouter = createTRPCRouter({
  list: ownerProcedure
    .input(z.void())
    .output(z.array(ZStaffMemberView))
    .query(({ ctx }) => listStaff(ctx.db, { actor: ctx.actor })),

  create: ownerProcedure
    .input(ZCreateAdminUserInput)
    .output(z.object({ user: ZStaffMemberView, invited: z.boolean() }))
    .mutation(({ ctx, input }) => createAdminUser(ctx.db, { actor: ctx.actor, ...input, appUrl: appUrl() })),

  setRoles: ownerProcedure
    .input(ZSetAdminRolesInput)
    .output(ZStaffChangeResult)
    .mutation(({ ctx, input }) => setAdminRoles(ctx.db, { actor: ctx.actor, ...input })),

  disable: ownerProcedure
    .input(ZDisableAdminUserInput)
    .output(ZStaffChangeResult)
    .mutation(({ ctx, input }) => disableAdminUser(ctx.db, { actor: ctx.actor, ...input })),

  enable: ownerProcedure
    .input(ZEnableAdminUserInput)
    .output(ZStaffChangeResult)
    .mutation(({ ctx, input }) => enableAdminUser(ctx.db, { actor: ctx.actor, ...input })),

  /** E-mail the user a link to choose a new password (through the outbox). */
  sendPasswordReset: ownerProcedure
    .input(ZSendAdminPasswordResetInput)
    .output(z.object({ userId: z.uuid(), expiresAt: z.date() }))
    .mutation(({ ctx, input }) => sendAdminPasswordReset(ctx.db, { actor: ctx.actor, ...input, appUrl: appUrl() })),

  /** The account's editorial settings: may anyone approve or publish a story they wrote; the front end's preview page. */
  editorialRules: ownerProcedure
    .input(z.void())
    .output(ZEditorialRules)
    .query(({ ctx }) => getEditorialRules(ctx.db, { actor: ctx.actor })),

  setEditorialRules: ownerProcedure
    .input(ZEditorialRulesInput)
    .output(ZEditorialRules)
    .mutation(({ ctx, input }) => setEditorialRules(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  apiKeys: createTRPCRouter({
    list: ownerProcedure
      .input(z.void())
      .output(z.array(ZApiKeyView))
      .query(({ ctx }) => listApiKeys(ctx.db, { actor: ctx.actor })),

    /** A new key, shown this once; the old one works for the grace period. */
    rotate: ownerProcedure
      .input(ZRotateApiKeyInput)
      .output(ZRotatedApiKey)
      .mutation(({ ctx, input }) => rotateApiKey(ctx.db, { actor: ctx.actor, ...input })),

    /** A new named key, shown this once. */
    create: ownerProcedure
      .input(ZCreateApiKeyInput)
      .output(ZCreatedApiKey)
      .mutation(({ ctx, input }) => createNamedApiKey(ctx.db, { actor: ctx.actor, ...input })),

    /** The key stops working at once. */
    revoke: ownerProcedure
      .input(ZRevokeApiKeyInput)
      .output(ZApiKeyView)
      .mutation(({ ctx, input }) => revokeApiKey(ctx.db, { actor: ctx.actor, ...input })),
  }),
});
