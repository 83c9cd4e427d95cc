/** mail.* – the account's mail outbox (password resets…), for owners. In development it is how reset links are read. */
import { z } from "zod";

import { getEnv } from "../../../env.js";
import { countOutgoingEmails, getOutgoingEmailHtml, listOutgoingEmails } from "../../mail/outbox";
import {
  ZListOutgoingEmailsInput,
  ZOutgoingEmailCounts,
  ZOutgoingEmailHtml,
  ZOutgoingEmailHtmlInput,
  ZOutgoingEmailPage,
} from "../../mail/outbox.schema";
import { describeMailTransport } from "../../mail/transport";
import { createTRPCRouter, ownerProcedure } from "../trpc";

export const mailRouter = createTRPCRouter({
  /** One page of outgoing e-mails, newest first, bodies included; `nextCursor` fetches older ones. */
  list: ownerProcedure
    .input(ZListOutgoingEmailsInput)
    .output(ZOutgoingEmailPage)
    .query(({ ctx, input }) =>
      listOutgoingEmails(ctx.db, {
        accountId: ctx.actor.accountId,
        transport: describeMailTransport(getEnv()),
        ...input,
      }),
    ),

  /** One e-mail's HTML part (null for a text-only mail); NOT_FOUND for another account's or none. */
  html: ownerProcedure
    .input(ZOutgoingEmailHtmlInput)
    .output(ZOutgoingEmailHtml)
    .query(({ ctx, input }) => getOutgoingEmailHtml(ctx.db, { accountId: ctx.actor.accountId, id: input.id })),

  /** How many e-mails are pending, sent and failed. */
  counts: ownerProcedure
    .input(z.void())
    .output(ZOutgoingEmailCounts)
    .query(({ ctx }) => countOutgoingEmails(ctx.db, { accountId: ctx.actor.accountId })),
});
