/**
 * Rate limits of the engagement writes (docs/engagement.md, "Limits"): every write is counted per
 * IP and per signed-in reader, and the comment create also per IP for guests (tighter). Routes
 * declare them as `rateLimit: ENGAGEMENT_RATE_LIMITS.<write>` (apiRoute counts each rule on the
 * configured store: memory, database or Redis). A new write adds an entry here with
 * `perIpAndReader(name, perIp, perReader, windowSeconds)`.
 */
import type { RouteRateLimit } from "./rate-limit-rules";

/** An "ip" rule and a "reader" rule over the same window; the names are `<name>` and `<name>.reader`. */
export function perIpAndReader(
  name: string,
  perIp: number,
  perReader: number,
  windowSeconds = 60,
): readonly RouteRateLimit[] {
  return [
    { name, limit: perIp, windowSeconds, by: "ip" },
    { name: `${name}.reader`, limit: perReader, windowSeconds, by: "reader" },
  ];
}

export const ENGAGEMENT_RATE_LIMITS = {
  /** Comments and replies; guests (no jwt) also 6 per 10 minutes per IP. */
  commentCreate: [
    ...perIpAndReader("engagement.comment.create", 30, 20),
    { name: "engagement.comment.create.guest", limit: 6, windowSeconds: 600, by: "guest" },
  ],
  commentEdit: perIpAndReader("engagement.comment.edit", 60, 30),
  commentHide: perIpAndReader("engagement.comment.hide", 60, 30),
  /** Adds and removals together, on comments and on pages. */
  reaction: perIpAndReader("engagement.reaction", 120, 60),
  pageMetadata: perIpAndReader("engagement.page_metadata", 60, 30),
  /** UGC submissions. */
  ugcCreate: perIpAndReader("engagement.ugc.create", 30, 20),
  /** Readers' reports of comments. */
  report: perIpAndReader("engagement.report", 30, 20),
  /** Illegal-content notices (EU Digital Services Act): per 10 minutes. */
  dsaNotice: perIpAndReader("engagement.dsa_notice", 10, 10, 600),
  /** A reader acknowledging a moderator's notice (docs/engagement.md "Notices to readers"). */
  noticeAcknowledge: perIpAndReader("engagement.notice.acknowledge", 60, 30),
  /** Comment images: per 10 minutes. */
  upload: perIpAndReader("engagement.upload", 20, 10, 600),
  /** Captcha challenges (guests fetch one per comment). */
  captchaChallenge: [{ name: "engagement.captcha.challenge", limit: 30, windowSeconds: 60, by: "ip" }],
} satisfies Record<string, readonly RouteRateLimit[]>;
