/** erasure.* – an owner erases a reader on the reader's request (docs/privacy.md "Erasure"); revenue staff see where it stands. */
import { ZErasureView, ZMemberIdInput, ZStaffEraseInput } from "../../privacy/erasure/erasure.schema";
import { eraseByStaff, erasureStatus } from "../../privacy/erasure/requests";
import { adminProcedure, createTRPCRouter, ownerProcedure } from "../trpc";

export const erasureRouter = createTRPCRouter({
  /** Where the reader's erasure stands (null: none asked). Another account's reader: null. */
  status: adminProcedure(["REVENUE"])
    .input(ZMemberIdInput)
    .output(ZErasureView.nullable())
    .query(({ ctx, input }) => erasureStatus(ctx.db, { accountId: ctx.actor.accountId, memberId: input.memberId })),

  /** Erase the reader (owners): the reader's e-mail typed again; audited; runs as the "privacy.erase" job. */
  erase: ownerProcedure
    .input(ZStaffEraseInput)
    .output(ZErasureView)
    .mutation(({ ctx, input }) =>
      eraseByStaff(ctx.db, {
        actor: ctx.actor,
        memberId: input.memberId,
        confirmEmail: input.confirmEmail,
        now: new Date(),
      }),
    ),
});
