/**
 * The reader's notification choices as the comment widget reads and writes them:
 * GET and PUT /api/v1/accounts/<account_id>/notifications/preferences (with the reader's `jwt`),
 * and the one-click unsubscribe's token (…/notifications/unsubscribe?token=).
 */
import { z } from "zod";

import { ZTimeZone } from "../moderation/surges/surge-settings.schema";

const ZNotificationChoice = z.enum(["off", "immediate", "digest"], {
  error: "must be off, immediate or digest",
});

const ZNotificationPrefs = z.strictObject({
  replies: ZNotificationChoice,
  mentions: ZNotificationChoice,
  decisions: ZNotificationChoice,
});
export type TNotificationPrefsWire = z.infer<typeof ZNotificationPrefs>;

export const ZPrefsParams = z.object({ account_id: z.string() });
export const ZPrefsQuery = z.object({ jwt: z.string().optional() });

/**
 * The reader's IANA time zone, for the digest's hour (the widget sends what the browser says,
 * `Intl.DateTimeFormat().resolvedOptions().timeZone`), kept in its canonical spelling.
 */
const ZReaderTimeZone = ZTimeZone.transform(
  (zone) => new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone,
);

/** A change: any of the kinds (at least one, unless only the time zone changes), the others kept. */
export const ZUpdatePrefsBody = z
  .strictObject({
    jwt: z.string().optional(),
    preferences: ZNotificationPrefs.partial()
      .refine((p) => Object.keys(p).length > 0, "must name at least one kind")
      .optional(),
    time_zone: ZReaderTimeZone.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.preferences === undefined && body.time_zone === undefined)
      ctx.addIssue({ code: "custom", path: ["preferences"], message: "must name at least one kind (or a time_zone)" });
  });

export const ZUnsubscribeQuery = z.object({ token: z.string().min(1, "is required").max(200) });

/**
 * The widget's answer: the reader's choice for each kind, whether e-mail can reach them at all,
 * and the time zone their digest's hour (07:00) is on (null: not known, so UTC).
 */
export type TPrefsAnswer = { preferences: TNotificationPrefsWire; email_on_file: boolean; time_zone: string | null };
