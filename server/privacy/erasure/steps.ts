/**
 * The erasure's step table (docs/privacy.md "Erasure"): in order, each step one area, one
 * transaction (or, for the gateway, its own idempotent transactions) and idempotent, so a run
 * killed after any step resumes at the next (./run.ts). The gateway goes first: nothing local is
 * removed while a gateway still charges the reader. The identities and the member row go last:
 * until then a resumed run reads the same needles (./subject.ts).
 * A further step goes before "identities", where it still sees the reader's e-mails.
 */
import "server-only";

import { removeAccess, removeIdentities, stripMember } from "./steps-account";
import { stopSubscriptions, stripBilling } from "./steps-billing";
import { anonymiseReaderIds } from "./steps-conversions";
import { applyCommentsRule, removeEngagement, removeNewsletters, removeNotifications } from "./steps-engagement";
import { clearImportRecords, clearOutbox, scrubOtherLogs, scrubWebhookLogs } from "./steps-logs";
import { removeConsentRecords, removeExports, stripNotices } from "./steps-privacy";
import type { ErasureStep } from "./subject";

export const ERASURE_STEPS: readonly ErasureStep[] = [
  {
    name: "gateway",
    what: "Live subscriptions are cancelled at their payment gateway and end now; a refusal stops the erasure.",
    mode: "own",
    run: stopSubscriptions,
  },
  {
    name: "access",
    what: "Sessions, password-reset and verification tokens, one-time codes, OAuth codes and tokens are deleted.",
    mode: "transaction",
    run: removeAccess,
  },
  {
    name: "comments",
    what: "Comments are kept (shown as by a deleted reader) or removed, by the account's setting; a removed comment others answered stays as a placeholder.",
    mode: "transaction",
    run: applyCommentsRule,
  },
  {
    name: "engagement",
    what: "Reactions, votes, reports the reader made, notices, bans and UGC submissions (approved ones kept under 'keep') are deleted.",
    mode: "transaction",
    run: removeEngagement,
  },
  {
    name: "notifications",
    what: "Notification preferences, notifications and consents are deleted.",
    mode: "transaction",
    run: removeNotifications,
  },
  {
    name: "newsletters",
    what: "Newsletter subscriptions, deliveries and their clicks, and suppressions of the reader's addresses are deleted.",
    mode: "transaction",
    run: removeNewsletters,
  },
  {
    name: "billing",
    what: "Invoices, credit notes and payments are kept without the e-mail; profile, gateway customer links and group memberships are deleted; payment logs are scrubbed.",
    mode: "transaction",
    run: stripBilling,
  },
  {
    name: "outbox",
    what: "Mails to the reader's addresses are deleted (unsent ones too); mails to others that name them are scrubbed.",
    mode: "transaction",
    run: clearOutbox,
  },
  {
    name: "webhooks",
    what: "Webhook events, deliveries, attempts and test receipts that name the reader are scrubbed.",
    mode: "transaction",
    run: scrubWebhookLogs,
  },
  {
    name: "imports",
    what: "Import records that map or name the reader are deleted.",
    mode: "transaction",
    run: clearImportRecords,
  },
  {
    name: "logs",
    what: "Audit entries, import reports, queued jobs and report notes that name the reader are scrubbed (the entries stay).",
    mode: "transaction",
    run: scrubOtherLogs,
  },
  {
    name: "exports",
    what: "The reader's data exports are deleted: their archives from storage, then their rows.",
    mode: "transaction",
    run: removeExports,
  },
  {
    name: "consents",
    what: "Consent records (what the reader agreed to or withdrew, when and how) and imported consents are deleted.",
    mode: "transaction",
    run: removeConsentRecords,
  },
  {
    name: "notices",
    what: "Illegal-content notices and appeals keep their counts without the reader's name, e-mail or member id.",
    mode: "transaction",
    run: stripNotices,
  },
  {
    name: "conversions",
    what: "Links from the reader's browser ids to them are deleted; the paywalls those browsers met stay counted under a new random id (a browser another reader also used keeps its id).",
    mode: "transaction",
    run: anonymiseReaderIds,
  },
  {
    name: "identities",
    what: "Identities (e-mail, social, publisher) are deleted: the same ones can sign up again as a new person.",
    mode: "transaction",
    run: removeIdentities,
  },
  {
    name: "member",
    what: "The member row becomes a tombstone: a unique non-routable e-mail, no name, an unusable password, no profile; its avatar file is deleted.",
    mode: "transaction",
    run: stripMember,
  },
];
