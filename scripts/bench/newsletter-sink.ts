/**
 * The SMTP sink of `npm run bench:newsletter` (./newsletter-send.ts), on a thread of its own as an
 * MTA is a process of its own: the SMTP server (server/testing/smtp-server.ts) and the check of each
 * mail as it arrives run beside the sender, not in its turns. Each mail is checked for its own
 * signed one-click unsubscribe header and link, its 10 distinct links each redirected with a valid
 * token and per-URL MAC, and its open pixel; the sender's thread then matches every token to the
 * recipient's delivery (the database is its).
 *
 * workerData: { accountId }. Posts { type: "ready", port }, then { type: "checked", mails } batches;
 * on "close", the last batch and { type: "closed" }.
 */
import { parentPort, workerData } from "node:worker_threads";

import { isClickMacValid } from "../../server/newsletters/links";
import { newsletterTokenKey, verifyNewsletterToken } from "../../server/newsletters/tokens";
import { parseReceivedMail, startSmtpServer, type ReceivedMessage } from "../../server/testing/smtp-server";

/** One mail as checked: its recipient, the delivery ids its tokens name, and what was wrong with it. */
export type CheckedMail = { to: string; ids: string[]; problems: string[] };
export type SinkMessage =
  { type: "ready"; port: number } | { type: "checked"; mails: CheckedMail[] } | { type: "closed" };

const port = parentPort!;
const { accountId } = workerData as { accountId: number };
const key = newsletterTokenKey();
const smtp = await startSmtpServer({ user: "bench", pass: "bench" });

function check(message: ReceivedMessage): CheckedMail {
  const to = message.to[0] ?? "";
  const problems: string[] = [];
  const ids = new Set<string>();
  const { headers, body } = parseReceivedMail(message.raw);
  const unsubscribe = /^<https:\/\/app\.bench\.test\/api\/newsletters\/unsubscribe\/([^>]+)>$/.exec(
    headers.get("list-unsubscribe") ?? "",
  );
  const unsubscribeId = unsubscribe ? verifyNewsletterToken(key, accountId, unsubscribe[1]!)?.id : undefined;
  if (unsubscribeId === undefined) problems.push("List-Unsubscribe is not a signed delivery link");
  else ids.add(String(unsubscribeId));
  if (headers.get("list-unsubscribe-post") !== "List-Unsubscribe=One-Click") problems.push("no List-Unsubscribe-Post");
  if (!body.includes(`/api/newsletters/unsubscribe/${unsubscribe?.[1]}`)) problems.push("no unsubscribe link");
  const urls = new Set<string>();
  for (const [, token, u, h] of body.matchAll(
    /\/api\/newsletters\/click\/([^?"\s]+)\?u=([^&"\s]+)&(?:amp;)?h=([A-Za-z0-9_-]+)/g,
  )) {
    const url = decodeURIComponent(u!);
    urls.add(url);
    const id = verifyNewsletterToken(key, accountId, token!)?.id;
    if (id === undefined) {
      problems.push("a link's token is not signed");
      continue;
    }
    ids.add(String(id));
    if (!isClickMacValid({ key, accountId, deliveryId: String(id), url, h: h! })) problems.push("a link's MAC");
  }
  // 8 sources, the story, the video (the HTML and the text part each carry them).
  if (urls.size !== 10) problems.push(`${urls.size} distinct links, not 10`);
  if (!body.includes(`/api/newsletters/open/`)) problems.push("no open pixel");
  return { to, ids: [...ids], problems };
}

/** Check what arrived, post it, and forget the mails' text (10,000 mails would otherwise stay in memory). */
const flush = () => {
  const batch = smtp.received.splice(0);
  if (batch.length) port.postMessage({ type: "checked", mails: batch.map(check) } satisfies SinkMessage);
};
const timer = setInterval(flush, 50);
port.on("message", (message: { type: "close" }) => {
  if (message.type !== "close") return;
  clearInterval(timer);
  flush();
  void smtp.close().then(() => {
    port.postMessage({ type: "closed" } satisfies SinkMessage);
    port.close();
  });
});
port.postMessage({ type: "ready", port: smtp.port } satisfies SinkMessage);
