/** paywallPoint.* – the account's paywall point settings (docs/subscriptions.md, "Who gets the paid part"): revenue staff read, owners change. */
import { z } from "zod";

import { getPaywallPointSettings, updatePaywallPointSettings } from "../../publishing/paywall-settings";
import { ZPaywallPointInput, ZPaywallPointView } from "../../publishing/paywall-settings.schema";
import { adminProcedure, createTRPCRouter, ownerProcedure } from "../trpc";

export const paywallPointRouter = createTRPCRouter({
  get: adminProcedure(["REVENUE"])
    .input(z.void())
    .output(ZPaywallPointView)
    .query(({ ctx }) => getPaywallPointSettings(ctx.db, { actor: ctx.actor })),
  update: ownerProcedure
    .input(ZPaywallPointInput)
    .output(ZPaywallPointView)
    .mutation(({ ctx, input }) => updatePaywallPointSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
