/**
 * Lists the dashboard reads a page at a time, newest first, by an opaque cursor (the audit log,
 * the outbox): the paging their input takes and the page they answer. Zod only: client components
 * import the schemas built from these.
 */
import { z } from "zod";

const CURSOR_PAGE_MAX_LIMIT = 100;

/** The paging of a list's input, to spread into its z.object: the cursor and the page size (25 by default). */
export const zCursorPaging = {
  /** Opaque: the `nextCursor` of the previous page. Absent for the first page. */
  cursor: z.string().max(200).nullish(),
  limit: z.number().int().min(1).max(CURSOR_PAGE_MAX_LIMIT, `must be at most ${CURSOR_PAGE_MAX_LIMIT}`).default(25),
};

/** A page of `item`s and the cursor of the next one. */
export const zCursorPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    /** Pass back as `cursor` for the next (older) page; null on the last page. */
    nextCursor: z.string().nullable(),
  });
