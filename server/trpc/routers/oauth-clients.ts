/** oauthClients.* – the account's registered OAuth clients, for owners (docs/engagement.md "OAuth 2.0"). */
import { z } from "zod";

import {
  createOAuthClient,
  listOAuthClients,
  revokeOAuthClient,
  rotateOAuthClientSecret,
  updateOAuthClient,
} from "../../oauth/clients";
import {
  ZCreateOAuthClientInput,
  ZOAuthClientSecretOnce,
  ZOAuthClientView,
  ZUpdateOAuthClientInput,
} from "../../oauth/clients.schema";
import { createTRPCRouter, ownerProcedure } from "../trpc";

const ZId = z.object({ id: z.uuid() });

export const oauthClientsRouter = createTRPCRouter({
  list: ownerProcedure
    .output(z.array(ZOAuthClientView))
    .query(({ ctx }) => listOAuthClients(ctx.db, { actor: ctx.actor })),

  /** Returns the secret once. */
  create: ownerProcedure
    .input(ZCreateOAuthClientInput)
    .output(z.object({ client: ZOAuthClientView }).extend(ZOAuthClientSecretOnce.shape))
    .mutation(({ ctx, input }) => createOAuthClient(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  update: ownerProcedure
    .input(ZUpdateOAuthClientInput)
    .output(ZOAuthClientView)
    .mutation(({ ctx, input }) => updateOAuthClient(ctx.db, { actor: ctx.actor, input })),

  /** Returns the new secret once; the old one stops working at once. */
  rotateSecret: ownerProcedure
    .input(ZId)
    .output(ZOAuthClientSecretOnce)
    .mutation(({ ctx, input }) => rotateOAuthClientSecret(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),

  revoke: ownerProcedure
    .input(ZId)
    .output(ZOAuthClientView)
    .mutation(({ ctx, input }) => revokeOAuthClient(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),
});
