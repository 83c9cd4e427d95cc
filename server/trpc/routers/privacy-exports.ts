/**
 * privacyExports.* – subject access requests from the dashboard's subscriber detail: staff
 * (REVENUE or OWNER) produce a reader's data export (audited `privacy.export`), see its state,
 * and download it at /api/admin/privacy/exports/<id> (only the staff user who asked may).
 */
import { z } from "zod";

import { ZStaffExportInput, ZStaffExportListInput, ZStaffExportView } from "../../privacy/exports/exports.schema";
import { listStaffExports, requestStaffExport } from "../../privacy/exports/requests";
import { adminProcedure, createTRPCRouter } from "../trpc";

const readersProcedure = adminProcedure(["REVENUE"]);

export const privacyExportsRouter = createTRPCRouter({
  /** One reader's exports, newest first (NOT_FOUND for another account's reader). */
  list: readersProcedure
    .input(ZStaffExportListInput)
    .output(z.array(ZStaffExportView))
    .query(({ ctx, input }) =>
      listStaffExports(ctx.db, { actor: ctx.actor, memberId: input.memberId, now: new Date() }),
    ),

  /** Produce a reader's data export (a subject access request); `mailReader` also mails them the link. */
  create: readersProcedure
    .input(ZStaffExportInput)
    .output(ZStaffExportView)
    .mutation(({ ctx, input }) =>
      requestStaffExport(ctx.db, {
        actor: ctx.actor,
        memberId: input.memberId,
        mailReader: input.mailReader,
        now: new Date(),
      }),
    ),
});
