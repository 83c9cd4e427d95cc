/** paymentGateways.* – an account's payment-gateway credentials (REVENUE staff; OWNER passes). Secrets go in, never out. */
import { z } from "zod";

import {
  checkGateway,
  deleteGateway,
  listGateways,
  setGatewayEnabled,
  upsertGateway,
} from "../../subscriptions/payments/gateways";
import {
  ZGatewayAdmin,
  ZGatewayCheck,
  ZGatewayProviderInput,
  ZSetGatewayEnabledInput,
  ZUpsertGatewayInput,
} from "../../subscriptions/payments/gateways.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);
const now = () => new Date();

export const paymentGatewaysRouter = createTRPCRouter({
  list: revenue
    .input(z.void())
    .output(z.array(ZGatewayAdmin))
    .query(({ ctx }) => listGateways(ctx.db, { actor: ctx.actor })),
  save: revenue
    .input(ZUpsertGatewayInput)
    .output(ZGatewayAdmin)
    .mutation(({ ctx, input }) => upsertGateway(ctx.db, { actor: ctx.actor, input, now: now() })),
  setEnabled: revenue
    .input(ZSetGatewayEnabledInput)
    .output(ZGatewayAdmin)
    .mutation(({ ctx, input }) => setGatewayEnabled(ctx.db, { actor: ctx.actor, input, now: now() })),
  /** The saved keys against the gateway, in words (Stripe: stripe-check.ts). Changes nothing. */
  check: revenue
    .input(ZGatewayProviderInput)
    .output(ZGatewayCheck)
    .mutation(({ ctx, input }) => checkGateway(ctx.db, { actor: ctx.actor, input, now: now() })),
  delete: revenue
    .input(ZGatewayProviderInput)
    .mutation(({ ctx, input }) => deleteGateway(ctx.db, { actor: ctx.actor, input, now: now() })),
});
