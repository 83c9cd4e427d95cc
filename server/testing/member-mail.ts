/** What tests read from the outbox of member mails. */
import type { Db } from "../db/client";
import { OTP_MAIL_KIND } from "../members/member-account";

/** The one-time code in the newest code mail to `to`. */
export async function lastOtpCode(db: Db, to: string): Promise<string> {
  const mail = await db.outgoingEmail.findFirstOrThrow({
    where: { to, kind: OTP_MAIL_KIND },
    orderBy: { createdAt: "desc" },
  });
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in the mail to ${to}`);
  return match[1]!;
}
