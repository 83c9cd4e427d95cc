/**
 * The files readers see, by surface (docs/i18n.md): the tests that hold them to the catalogue
 * (./reader-literals.test.ts) and to logical sides (./logical-css.test.ts) read them. A folder
 * stands for every file below it.
 */
export const READER_SURFACES: ReadonlyMap<string, readonly string[]> = new Map([
  ["widgets", ["widgets/src"]],
  ["member", ["app/member", "components/members", "app/newsletters", "server/privacy/exports/render.ts"]],
  ["paywall", ["sdk/accesstype", "app/demo/paywall", "components/demo", "server/publishing/feeds/amp.ts"]],
  [
    "mail",
    [
      "server/mail/reader-mail.ts",
      "server/engagement/notifications/mail.ts",
      "server/engagement/notifications/notify.ts",
      "server/engagement/notifications/unsubscribe.ts",
      "server/newsletters/render-mail.ts",
      "server/newsletters/render-elements.ts",
      "server/newsletters/send-content.ts",
      "server/newsletters/digest.ts",
      "server/newsletters/subscriptions.ts",
      "server/members/member-account.ts",
      "server/members/members.ts",
      "server/subscriptions/recurring/dunning.ts",
      "server/subscriptions/recurring/lifecycle.ts",
      "server/subscriptions/invoices/invoice-document.ts",
      "server/subscriptions/invoices/credit-note-document.ts",
      "server/subscriptions/invoices/pdf-document.ts",
      "server/privacy/exports/build.ts",
    ],
  ],
]);
