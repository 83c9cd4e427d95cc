/** The erasure's edges (tRPC and REST), validated with zod. */
import { z } from "zod";

export const ZMemberIdInput = z.object({ memberId: z.number().int().min(1).max(2147483647) });

export const ZStaffEraseInput = ZMemberIdInput.extend({
  /** The reader's e-mail, typed again by the owner. */
  confirmEmail: z.string().trim().min(1).max(320),
});

export const ZErasureView = z.object({
  id: z.string(),
  state: z.string(),
  steps_done: z.array(z.string()),
  last_error: z.string().nullable(),
});

export const ZConfirmErasureBody = z.object({ token: z.string().trim().min(16).max(200) });
