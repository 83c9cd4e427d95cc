/** loginProviders.* – the account's social / OpenID Connect logins for members (owners only). */
import { z } from "zod";

import { deleteLoginProvider, listLoginProviders, saveLoginProvider } from "../../members/social-login";
import {
  ZDeleteLoginProviderInput,
  ZLoginProviderView,
  ZSaveLoginProviderInput,
} from "../../members/social-login.schema";
import { createTRPCRouter, ownerProcedure } from "../trpc";

export const loginProvidersRouter = createTRPCRouter({
  list: ownerProcedure
    .input(z.void())
    .output(z.array(ZLoginProviderView))
    .query(({ ctx }) => listLoginProviders(ctx.db, { actor: ctx.actor })),

  /** Create or replace one provider by name; the client secret is never sent back. */
  save: ownerProcedure
    .input(ZSaveLoginProviderInput)
    .output(ZLoginProviderView)
    .mutation(({ ctx, input }) => saveLoginProvider(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  delete: ownerProcedure
    .input(ZDeleteLoginProviderInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteLoginProvider(ctx.db, { actor: ctx.actor, name: input.name, now: new Date() })),
});
