/** subscriptions.* – the catalogue (groups, plans, assets, pay-per-asset plans, coupons, tax rules): REVENUE staff. */
import { z } from "zod";

import { createAsset, deleteAsset, listAssets, updateAsset } from "../../subscriptions/catalogue/assets";
import {
  ZCreateAssetInput,
  ZCreateCouponInput,
  ZCreateGroupInput,
  ZCreatePlanInput,
  ZCreatePricingPlanInput,
  ZCreateTaxRuleInput,
  ZIdInput,
  ZSearchPricingAssetsInput,
  ZSetEnabledInput,
  ZUpdateAssetInput,
  ZUpdateCouponInput,
  ZUpdateGroupInput,
  ZUpdatePlanInput,
  ZUpdatePricingPlanInput,
  ZUpdateTaxRuleInput,
} from "../../subscriptions/catalogue/catalogue.schema";
import { createCoupon, deleteCoupon, listCoupons, updateCoupon } from "../../subscriptions/catalogue/coupons";
import {
  createGroup,
  deleteGroup,
  getGroupForAdmin,
  listGroupsForAdmin,
  updateGroup,
} from "../../subscriptions/catalogue/groups";
import {
  createPlan,
  deletePlan,
  listPlansForAdmin,
  setPlanEnabled,
  updatePlan,
} from "../../subscriptions/catalogue/plans";
import {
  createPricingPlan,
  deletePricingPlan,
  listPricingPlansForAdmin,
  searchPricingAssets,
  updatePricingPlan,
} from "../../subscriptions/catalogue/pricing-plans";
import { createTaxRule, deleteTaxRule, listTaxRules, updateTaxRule } from "../../subscriptions/catalogue/taxes";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);
const now = () => new Date();

export const subscriptionsRouter = createTRPCRouter({
  groups: createTRPCRouter({
    list: revenue.input(z.void()).query(({ ctx }) => listGroupsForAdmin(ctx.db, { actor: ctx.actor })),
    get: revenue
      .input(ZIdInput)
      .query(({ ctx, input }) => getGroupForAdmin(ctx.db, { actor: ctx.actor, id: input.id })),
    create: revenue
      .input(ZCreateGroupInput)
      .mutation(({ ctx, input }) => createGroup(ctx.db, { actor: ctx.actor, input, now: now() })),
    update: revenue
      .input(ZUpdateGroupInput)
      .mutation(({ ctx, input }) => updateGroup(ctx.db, { actor: ctx.actor, input, now: now() })),
    delete: revenue
      .input(ZIdInput)
      .mutation(({ ctx, input }) => deleteGroup(ctx.db, { actor: ctx.actor, input, now: now() })),
  }),
  plans: createTRPCRouter({
    list: revenue.input(z.void()).query(({ ctx }) => listPlansForAdmin(ctx.db, { actor: ctx.actor })),
    create: revenue
      .input(ZCreatePlanInput)
      .mutation(({ ctx, input }) => createPlan(ctx.db, { actor: ctx.actor, input, now: now() })),
    update: revenue
      .input(ZUpdatePlanInput)
      .mutation(({ ctx, input }) => updatePlan(ctx.db, { actor: ctx.actor, input, now: now() })),
    setEnabled: revenue
      .input(ZSetEnabledInput)
      .mutation(({ ctx, input }) => setPlanEnabled(ctx.db, { actor: ctx.actor, input, now: now() })),
    delete: revenue
      .input(ZIdInput)
      .mutation(({ ctx, input }) => deletePlan(ctx.db, { actor: ctx.actor, input, now: now() })),
  }),
  assets: createTRPCRouter({
    list: revenue.input(z.void()).query(({ ctx }) => listAssets(ctx.db, { actor: ctx.actor })),
    create: revenue
      .input(ZCreateAssetInput)
      .mutation(({ ctx, input }) => createAsset(ctx.db, { actor: ctx.actor, input, now: now() })),
    update: revenue
      .input(ZUpdateAssetInput)
      .mutation(({ ctx, input }) => updateAsset(ctx.db, { actor: ctx.actor, input, now: now() })),
    delete: revenue
      .input(ZIdInput)
      .mutation(({ ctx, input }) => deleteAsset(ctx.db, { actor: ctx.actor, input, now: now() })),
  }),
  pricingPlans: createTRPCRouter({
    list: revenue.input(z.void()).query(({ ctx }) => listPricingPlansForAdmin(ctx.db, { actor: ctx.actor })),
    /** The form's story or collection picker (REVENUE staff cannot use the content area's). */
    searchAssets: revenue
      .input(ZSearchPricingAssetsInput)
      .query(({ ctx, input }) => searchPricingAssets(ctx.db, { actor: ctx.actor, input })),
    create: revenue
      .input(ZCreatePricingPlanInput)
      .mutation(({ ctx, input }) => createPricingPlan(ctx.db, { actor: ctx.actor, input, now: now() })),
    update: revenue
      .input(ZUpdatePricingPlanInput)
      .mutation(({ ctx, input }) => updatePricingPlan(ctx.db, { actor: ctx.actor, input, now: now() })),
    delete: revenue
      .input(ZIdInput)
      .mutation(({ ctx, input }) => deletePricingPlan(ctx.db, { actor: ctx.actor, input, now: now() })),
  }),
  coupons: createTRPCRouter({
    list: revenue.input(z.void()).query(({ ctx }) => listCoupons(ctx.db, { actor: ctx.actor })),
    create: revenue
      .input(ZCreateCouponInput)
      .mutation(({ ctx, input }) => createCoupon(ctx.db, { actor: ctx.actor, input, now: now() })),
    update: revenue
      .input(ZUpdateCouponInput)
      .mutation(({ ctx, input }) => updateCoupon(ctx.db, { actor: ctx.actor, input, now: now() })),
    delete: revenue
      .input(ZIdInput)
      .mutation(({ ctx, input }) => deleteCoupon(ctx.db, { actor: ctx.actor, input, now: now() })),
  }),
  taxRules: createTRPCRouter({
    list: revenue.input(z.void()).query(({ ctx }) => listTaxRules(ctx.db, { actor: ctx.actor })),
    create: revenue
      .input(ZCreateTaxRuleInput)
      .mutation(({ ctx, input }) => createTaxRule(ctx.db, { actor: ctx.actor, input, now: now() })),
    update: revenue
      .input(ZUpdateTaxRuleInput)
      .mutation(({ ctx, input }) => updateTaxRule(ctx.db, { actor: ctx.actor, input, now: now() })),
    delete: revenue
      .input(ZIdInput)
      .mutation(({ ctx, input }) => deleteTaxRule(ctx.db, { actor: ctx.actor, input, now: now() })),
  }),
});
