/**
 * Wire shapes of the access decision's endpoints (docs/subscriptions.md, "Access and metering"):
 * the query the web check, AMP's authorization and both pingbacks take, the pingback body (the
 * spec's meter object) and the meter settings of the dashboard.
 */
import { z } from "zod";

import { ZLanguageTagText } from "./sdk-messages.schema";

const zFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** Path: the story's id (its story-content-id). Any text: an unknown or malformed id is a 404. */
export const ZAccessParams = z.object({ storyId: z.string().min(1).max(100) });

/**
 * The anonymous reader id the browser knows (the SDK's `masthead_reader_id`, AMP's READER_ID):
 * printable ASCII without spaces, at most 200 characters; empty → none. The access calls, the
 * offer call, checkout and the member flows take it alike.
 */
export const ZReaderId = z
  .string()
  .trim()
  .max(200, "readerId is at most 200 characters")
  .regex(/^[\x21-\x7e]*$/, "readerId is printable ASCII without spaces")
  .optional()
  .transform((v) => v || null);

/**
 * ?key= (client key; or X-SUBAUTH), the reader's JWT (accesstype_jwt, svc_jwt, masthead_jwt),
 * readerId (AMP's READER_ID, the web's reader cookie), disable-meter (hard paywall), what AMP adds
 * (accesstype_integration_id, accepted and not used; __amp_source_origin), and `locale`: the
 * page's language, which asks the check for the reader's words with the grant (access-words.ts).
 */
export const ZAccessQuery = z.object({
  key: z.string().optional(),
  masthead_jwt: z.string().optional(),
  accesstype_jwt: z.string().optional(),
  svc_jwt: z.string().optional(),
  readerId: ZReaderId,
  "disable-meter": zFlag,
  accesstype_integration_id: z.string().max(100).optional(),
  __amp_source_origin: z.string().max(500).optional(),
  locale: ZLanguageTagText,
});

/** The web check: the same, plus count=true to count a metered read in the same call. */
export const ZWebAccessQuery = ZAccessQuery.extend({ count: zFlag });

/**
 * The pingback body, sent as text/plain (AMP, sendBeacon) or JSON: the meter object AMP or the
 * SDK got from the check. It is read for its shape only: what is counted is decided again here.
 */
export const ZMeterObject = z
  .object({
    granted: z.boolean().optional(),
    grantReason: z.string().max(50).nullable().optional(),
    data: z
      .object({
        numberRemaining: z.number().nullable().optional(),
        isLoggedIn: z.boolean().optional(),
        isLast: z.boolean().optional(),
      })
      .passthrough()
      .nullable()
      .optional(),
  })
  .passthrough();

/**
 * The pingback body is the grant AMP got (amp-subscriptions sends it back whole), so it holds the
 * reader's words when the check was asked for them: three messages of at most 2,000 characters
 * (an owner's override), up to 3 bytes each in UTF-8, are 18 kB; with the grant, under 24 kB.
 */
export const PINGBACK_MAX_BODY_BYTES = 24 * 1024;

/** The dashboard's "Paywall meter" settings, with the registration wall's. */
export const ZMeterSettingsInput = z.object({
  enabled: z.boolean(),
  freeStories: z.number().int().min(0).max(1000),
  periodLength: z.number().int().min(1).max(366),
  periodUnit: z.enum(["days", "weeks", "months", "years"]),
  meterAnonymous: z.boolean(),
  /**
   * The registration wall: anonymous readers sign up, free, after `registrationFreeStories` of their
   * own meter. A save that leaves them out turns the wall off (a save holds every setting).
   */
  registrationWall: z.boolean().default(false),
  registrationFreeStories: z.number().int().min(0).max(1000).default(3),
});
export type TMeterSettingsInput = z.infer<typeof ZMeterSettingsInput>;

export const ZMeterSettingsView = ZMeterSettingsInput.extend({
  /** False: no settings saved yet (metering is off; the values are the defaults a save would keep). */
  configured: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type TMeterSettingsView = z.infer<typeof ZMeterSettingsView>;
