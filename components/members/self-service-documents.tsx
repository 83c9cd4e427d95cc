"use client";

/** The self-service page's invoices and credit notes, each with its PDF (./self-service.tsx). */
import { textLinkClasses } from "@/components/ui";

import { LocalTime } from "./local-time";
import { useWords } from "./member-i18n";
import type { CreditNote, Invoice } from "./self-service-api";

export function Invoices({ invoices }: { invoices: Invoice[] }) {
  const { t, rich } = useWords();
  return (
    <section aria-labelledby="invoices-heading" className="space-y-3">
      <h2 id="invoices-heading" className="text-base font-semibold text-gray-900">
        {t("invoices.title")}
      </h2>
      {invoices.length === 0 ? (
        <p className="text-sm text-gray-600">{t("invoices.none")}</p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-md border border-gray-200 bg-white">
          {invoices.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
              <span className="text-gray-900">
                {rich("invoices.item", {
                  number: String(i.number),
                  date: <LocalTime value={i.created_at} />,
                  amount: <bdi>{i.amount}</bdi>,
                })}
              </span>
              <a className={textLinkClasses} href={i.pdf_href} download>
                {t("invoices.download")}
                <span className="sr-only"> {t("invoices.which", { number: String(i.number) })}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function CreditNotes({ notes }: { notes: CreditNote[] }) {
  const { t, rich } = useWords();
  return (
    <section aria-labelledby="credit-notes-heading" className="space-y-3">
      <h2 id="credit-notes-heading" className="text-base font-semibold text-gray-900">
        {t("credit.title")}
      </h2>
      <ul className="divide-y divide-gray-200 rounded-md border border-gray-200 bg-white">
        {notes.map((n) => (
          <li key={n.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
            <span className="text-gray-900">
              {rich("credit.item", {
                number: String(n.number),
                invoice: String(n.invoice_number),
                date: <LocalTime value={n.created_at} />,
                amount: <bdi>{n.amount}</bdi>,
              })}
            </span>
            <a className={textLinkClasses} href={n.pdf_href} download>
              {t("invoices.download")}
              <span className="sr-only"> {t("credit.which", { number: String(n.number) })}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
