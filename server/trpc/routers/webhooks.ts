/** webhooks.* – outgoing webhook endpoints and their delivery log, for owners. */
import { z } from "zod";

import { getEnv } from "../../../env.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  sendWebhookTest,
  setWebhookEndpointActive,
  updateWebhookEndpoint,
} from "../../webhooks/endpoints";
import {
  EVENTS_BY_KIND,
  ZCreateWebhookEndpointInput,
  ZListDeliveriesInput,
  ZUpdateWebhookEndpointInput,
  ZWebhookCatalog,
  ZWebhookDeliveryPage,
  ZWebhookEndpointListItem,
  ZWebhookEndpointView,
  ZWebhookSecretOnce,
} from "../../webhooks/events.schema";
import { sendWebhookTestPreview } from "../../webhooks/test-delivery";
import { ZTestDeliveryInput, ZTestDeliveryView, ZTestReceiverView } from "../../webhooks/test-delivery.schema";
import { testReceiverView } from "../../webhooks/test-receiver";
import { sendWebhookRequest } from "../../webhooks/transport";
import { createTRPCRouter, ownerProcedure } from "../trpc";

const ZId = z.object({ id: z.uuid() });
const allowPrivate = () => ({ allowPrivate: getEnv().WEBHOOK_ALLOW_PRIVATE_URLS });

export const webhooksRouter = createTRPCRouter({
  /** Event names per kind, for the form. */
  catalog: ownerProcedure.output(ZWebhookCatalog).query(() => ({
    CONTENT: [...EVENTS_BY_KIND.CONTENT],
    SUBSCRIPTION: [...EVENTS_BY_KIND.SUBSCRIPTION],
    ENGAGEMENT: [...EVENTS_BY_KIND.ENGAGEMENT],
  })),

  list: ownerProcedure
    .output(z.array(ZWebhookEndpointListItem))
    .query(({ ctx }) => listWebhookEndpoints(ctx.db, { actor: ctx.actor })),

  get: ownerProcedure
    .input(ZId)
    .output(ZWebhookEndpointView)
    .query(({ ctx, input }) => getWebhookEndpoint(ctx.db, { actor: ctx.actor, id: input.id })),

  /** Returns the generated secret once. */
  create: ownerProcedure
    .input(ZCreateWebhookEndpointInput)
    .output(z.object({ endpoint: ZWebhookEndpointView }).extend(ZWebhookSecretOnce.shape))
    .mutation(({ ctx, input }) => createWebhookEndpoint(ctx.db, { actor: ctx.actor, input, ...allowPrivate() })),

  update: ownerProcedure
    .input(ZUpdateWebhookEndpointInput)
    .output(ZWebhookEndpointView)
    .mutation(({ ctx, input }) => updateWebhookEndpoint(ctx.db, { actor: ctx.actor, input, ...allowPrivate() })),

  setActive: ownerProcedure
    .input(ZId.extend({ active: z.boolean() }))
    .output(ZWebhookEndpointView)
    .mutation(({ ctx, input }) => setWebhookEndpointActive(ctx.db, { actor: ctx.actor, ...input, now: new Date() })),

  /** Returns the new secret once; the old one keeps signing for a day. */
  rotateSecret: ownerProcedure
    .input(ZId)
    .output(ZWebhookSecretOnce)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() })),

  delete: ownerProcedure
    .input(ZId)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteWebhookEndpoint(ctx.db, { actor: ctx.actor, id: input.id });
      return { deleted: true as const };
    }),

  sendTest: ownerProcedure
    .input(ZId)
    .output(z.object({ deliveryId: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      const { deliveryId } = await sendWebhookTest(ctx.db, { actor: ctx.actor, id: input.id, now: new Date() });
      return { deliveryId };
    }),

  /** The request a chosen event would make, shown with its signatures; sent too when the address is allowed. */
  testPreview: ownerProcedure
    .input(ZTestDeliveryInput)
    .output(ZTestDeliveryView)
    .mutation(({ ctx, input }) =>
      sendWebhookTestPreview(ctx.db, {
        actor: ctx.actor,
        ...input,
        now: new Date(),
        send: sendWebhookRequest,
        ...allowPrivate(),
      }),
    ),

  /** The account's built-in test receiver: its URL, and the requests it kept (newest first). */
  testReceiver: ownerProcedure
    .output(ZTestReceiverView)
    .query(({ ctx }) => testReceiverView(ctx.db, { actor: ctx.actor })),

  deliveries: ownerProcedure
    .input(ZListDeliveriesInput)
    .output(ZWebhookDeliveryPage)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx.db, { actor: ctx.actor, ...input })),

  redeliver: ownerProcedure
    .input(z.object({ deliveryId: z.uuid() }))
    .output(z.object({ deliveryId: z.uuid() }))
    .mutation(async ({ ctx, input }) => {
      return redeliverWebhook(ctx.db, { actor: ctx.actor, deliveryId: input.deliveryId, now: new Date() });
    }),
});
