/** paywallMeter.* – the account's paywall meter settings (docs/subscriptions.md, "Access and metering"): REVENUE staff. */
import { z } from "zod";

import { ZMeterSettingsInput, ZMeterSettingsView } from "../../subscriptions/access/access.schema";
import { getMeterSettings, updateMeterSettings } from "../../subscriptions/access/meter-settings";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);

export const paywallMeterRouter = createTRPCRouter({
  get: revenue
    .input(z.void())
    .output(ZMeterSettingsView)
    .query(({ ctx }) => getMeterSettings(ctx.db, { actor: ctx.actor })),
  update: revenue
    .input(ZMeterSettingsInput)
    .output(ZMeterSettingsView)
    .mutation(({ ctx, input }) => updateMeterSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
