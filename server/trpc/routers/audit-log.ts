/** auditLog.* – the account's audit log, for owners. */
import { listAuditActions, listAuditActors, listAuditLog } from "../../audit/audit-log";
import { ZAuditActionList, ZAuditActorList, ZAuditLogPage, ZListAuditLogInput } from "../../audit/audit-log.schema";
import { createTRPCRouter, ownerProcedure } from "../trpc";

export const auditLogRouter = createTRPCRouter({
  /** One page of entries, newest first, filtered; `nextCursor` fetches the next (older) page. */
  list: ownerProcedure
    .input(ZListAuditLogInput)
    .output(ZAuditLogPage)
    .query(({ ctx, input }) => listAuditLog(ctx.db, { accountId: ctx.actor.accountId, ...input })),

  /** The actions present in the log, for the filter. */
  actions: ownerProcedure
    .output(ZAuditActionList)
    .query(({ ctx }) => listAuditActions(ctx.db, { accountId: ctx.actor.accountId })),

  /** The staff members the log has entries of, for the filter. */
  actors: ownerProcedure
    .output(ZAuditActorList)
    .query(({ ctx }) => listAuditActors(ctx.db, { accountId: ctx.actor.accountId })),
});
