/**
 * The numbers moderators need (docs/engagement.md "Moderation figures"): how old the queue is, how
 * long a decision takes, and how many decisions each moderator made per day and per week. zod
 * only, so the dashboard can import it; the service is moderation-stats.ts.
 */
import { z } from "zod";

export const ZModerationStatsInput = z
  .object({
    /** Days of decisions per moderator, today included, and of time to decision. */
    days: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(31, "must be at most 31")
      .default(7),
    /** Weeks (Monday to Sunday) of decisions per moderator, this week included. */
    weeks: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(26, "must be at most 26")
      .default(8),
  })
  .strict();
export type TModerationStatsInput = z.input<typeof ZModerationStatsInput>;

const ZModeratorCounts = z.object({
  /** The admin user's id (null: a user deleted since). */
  moderatorId: z.string().nullable(),
  name: z.string(),
  /** One count per period, in the periods' order. */
  counts: z.array(z.number().int()),
  total: z.number().int(),
});

export const ZModerationStats = z.object({
  /** The account's moderation time zone: days and weeks are its calendar's. */
  timeZone: z.string(),
  generatedAt: z.date(),
  queue: z.object({
    pending: z.number().int(),
    oldestAt: z.date().nullable(),
    oldestAgeSeconds: z.number().int().nullable(),
    medianAgeSeconds: z.number().int().nullable(),
  }),
  /** Comments decided in the last `days` days: from creation to the (last) decision. */
  timeToDecision: z.object({
    days: z.number().int(),
    decided: z.number().int(),
    medianSeconds: z.number().int().nullable(),
    p90Seconds: z.number().int().nullable(),
  }),
  /** Each decision a moderator made (approve, reject, spam, not spam, delete; an undo is none), per local day. */
  perDay: z.object({ periods: z.array(z.string()), moderators: z.array(ZModeratorCounts) }),
  /** The same per week, each named by its Monday. */
  perWeek: z.object({ periods: z.array(z.string()), moderators: z.array(ZModeratorCounts) }),
});
export type TModerationStats = z.output<typeof ZModerationStats>;
