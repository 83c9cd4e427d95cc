/** The wire shapes of newsletter sends (the story editor's Newsletter panel, the Sends page). */
import { z } from "zod";

export const SEND_STATUSES = ["QUEUED", "SENDING", "SENT", "CANCELLED"] as const;
export const TEST_RECIPIENTS_MAX = 5;

const ZSubject = z
  .string()
  .trim()
  .min(1, "Give the mail a subject.")
  .max(250, "The subject is at most 250 characters.")
  .refine((s) => !/[\r\n]/.test(s), "The subject is one line.");

const ZNewsletterIds = z
  .array(z.number().int().positive())
  .min(1, "Choose a newsletter.")
  .max(20)
  .transform((ids) => [...new Set(ids)]);

export const ZStorySendInput = z.object({
  storyId: z.uuid(),
  newsletterIds: ZNewsletterIds,
  /** Default: the story's headline. */
  subject: ZSubject.optional(),
});

export const ZPublishAndSendInput = ZStorySendInput.extend({
  /** The version the editor saw (a stale one is CONFLICT, as for Publish). */
  version: z.number().int().positive(),
});

export const ZTestSendInput = z.object({
  storyId: z.uuid(),
  newsletterId: z.number().int().positive(),
  subject: ZSubject.optional(),
  to: z
    .array(z.email("Give e-mail addresses.").max(254))
    .min(1, "Give at least one address.")
    .max(TEST_RECIPIENTS_MAX, `At most ${TEST_RECIPIENTS_MAX} addresses.`),
});

/** The mail as readers get it, before sending (the Newsletter panel's preview). */
export const ZPreviewSendInput = z.object({
  storyId: z.uuid(),
  newsletterId: z.number().int().positive(),
  subject: ZSubject.optional(),
});

export const ZSendIdInput = z.object({ sendId: z.number().int().positive() });

export const ZListSendsInput = z.object({
  newsletterId: z.number().int().positive().optional(),
  storyId: z.uuid().optional(),
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListSendsInput = z.input<typeof ZListSendsInput>;

const ZSendView = z.object({
  id: z.number(),
  newsletterId: z.number(),
  newsletterName: z.string(),
  kind: z.string(),
  storyId: z.string().nullable(),
  subject: z.string(),
  status: z.enum(SEND_STATUSES),
  recipients: z.number(),
  sent: z.number(),
  failed: z.number(),
  skipped: z.number(),
  pending: z.number(),
  scheduledAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  createdAt: z.date(),
});
export type TSendView = z.infer<typeof ZSendView>;

export const ZSendPage = z.object({
  items: z.array(ZSendView),
  nextCursor: z.number().nullable(),
  timeZone: z.string(),
});
export type TSendPage = z.infer<typeof ZSendPage>;

const ZNewsletterChoice = z.object({
  id: z.number(),
  name: z.string(),
  audience: z.string(),
  recipients: z.number(),
});
export const ZNewsletterChoices = z.array(ZNewsletterChoice);
