"use client";

/**
 * One paywall offer's form (offers.create / offers.update; REVENUE staff): plans, coupon, trial,
 * copy per locale and the segment. Checked with the server's zod schema before sending; the
 * server's 400/422 names the field, shown under the form.
 */
import { useState } from "react";

import {
  Button,
  Checkbox,
  ErrorAlert,
  Fieldset,
  FormActions,
  FormField,
  Input,
  Panel,
  Select,
  Textarea,
  WholeNumberInput,
} from "@/components/ui";
import { LOCALE_NAMES, LOCALES } from "@/i18n/locales";
import {
  AUDIENCES,
  DEVICES,
  ZOfferInput,
  type TOfferValues,
  type TOfferView,
} from "@/server/subscriptions/offers/offers.schema";

type Plan = { id: number; title: string; group_name: string };
type Copy = Map<string, { headline: string; body: string }>;

const AUDIENCE_LABELS = new Map([
  ["anonymous", "Anonymous (not signed in)"],
  ["registered", "Registered, never subscribed"],
  ["lapsed", "Lapsed subscribers (a subscription ended)"],
]);

// eslint-disable-next-line max-lines-per-function -- TODO(issue 62): not cut into parts yet
export function OfferForm({
  offer,
  plans,
  pending,
  error,
  onSave,
  onCancel,
}: {
  offer: TOfferView | null;
  plans: Plan[];
  pending: boolean;
  error: unknown;
  onSave: (values: TOfferValues) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(offer?.name ?? "");
  const [priority, setPriority] = useState(String(offer?.priority ?? 100));
  const [isDefault, setIsDefault] = useState(offer?.isDefault ?? false);
  const [enabled, setEnabled] = useState(offer?.enabled ?? true);
  const [planIds, setPlanIds] = useState<number[]>(offer?.planIds ?? []);
  const [couponCode, setCouponCode] = useState(offer?.couponCode ?? "");
  const [trialDays, setTrialDays] = useState(offer?.trialDays ? String(offer.trialDays) : "");
  const [defaultLocale, setDefaultLocale] = useState(offer?.defaultLocale ?? "en");
  const [copy, setCopy] = useState<Copy>(() => new Map(offer?.copy.map((c) => [c.locale, c]) ?? []));
  const [audiences, setAudiences] = useState<string[]>(offer?.segment.audiences ?? []);
  const [newsletter, setNewsletter] = useState(String(offer?.segment.newsletter ?? "any"));
  const [countries, setCountries] = useState(offer?.segment.countries.join(", ") ?? "");
  const [devices, setDevices] = useState<string[]>(offer?.segment.devices ?? []);
  const [localError, setLocalError] = useState<string | null>(null);

  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));
  const setText = (locale: string, key: "headline" | "body", value: string) =>
    setCopy((current) => {
      const next = new Map(current);
      next.set(locale, { ...(next.get(locale) ?? { headline: "", body: "" }), [key]: value });
      return next;
    });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = ZOfferInput.safeParse({
      name,
      priority: Number(priority),
      isDefault,
      enabled,
      planIds,
      couponCode: couponCode.trim() || null,
      trialDays: trialDays.trim() ? Number(trialDays) : null,
      defaultLocale,
      copy: [...copy.entries()]
        .filter(([locale, c]) => locale === defaultLocale || c.headline.trim() || c.body.trim())
        .map(([locale, c]) => ({ locale, ...c })),
      segment: {
        audiences,
        newsletter: newsletter === "any" ? null : newsletter === "true",
        countries: countries.split(/[\s,]+/).filter(Boolean),
        devices,
      },
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setLocalError(`${issue.path.join(".") || "offer"}: ${issue.message}`);
      return;
    }
    setLocalError(null);
    onSave(parsed.data);
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4" data-testid="offer-form">
      <Panel title={offer ? `Edit “${offer.name}”` : "New offer"} padded>
        <FormField label="Name">
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </FormField>
        <div className="flex flex-wrap gap-4">
          <FormField label="Priority" hint="Lower is asked first.">
            <WholeNumberInput min={0} max={10000} value={priority} onChange={(e) => setPriority(e.target.value)} />
          </FormField>
          <FormField label="Trial days" hint="Empty: each plan's own trial.">
            <WholeNumberInput min={1} max={366} value={trialDays} onChange={(e) => setTrialDays(e.target.value)} />
          </FormField>
          <FormField label="Coupon code" hint="An existing coupon; empty: the plans' prices.">
            <Input value={couponCode} onChange={(e) => setCouponCode(e.target.value)} maxLength={64} />
          </FormField>
        </div>
        <Checkbox
          label="Default offer (when no other matches)"
          checked={isDefault}
          onChange={(e) => setIsDefault(e.target.checked)}
        />
        <Checkbox label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <Fieldset legend="Plans shown">
          {plans.map((p) => (
            <Checkbox
              key={p.id}
              label={`${p.title} (${p.group_name})`}
              checked={planIds.includes(p.id)}
              onChange={(e) => setPlanIds(toggle(planIds, p.id, e.target.checked))}
            />
          ))}
        </Fieldset>
      </Panel>
      <Panel title="Copy" padded>
        <FormField label="Default language" hint="Readers of a language without copy see this one.">
          <Select fit value={defaultLocale} onChange={(e) => setDefaultLocale(e.target.value)}>
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {LOCALE_NAMES.get(l)}
              </option>
            ))}
          </Select>
        </FormField>
        {LOCALES.filter((l) => l === defaultLocale || copy.has(l) || l === "en").map((l) => (
          <Fieldset key={l} legend={`${LOCALE_NAMES.get(l)}${l === defaultLocale ? " (default)" : ""}`}>
            <div className="space-y-2">
              <FormField label={`Headline (${l})`}>
                <Input
                  value={copy.get(l)?.headline ?? ""}
                  onChange={(e) => setText(l, "headline", e.target.value)}
                  maxLength={240}
                />
              </FormField>
              <FormField label={`Body (${l})`}>
                <Textarea
                  rows={3}
                  value={copy.get(l)?.body ?? ""}
                  onChange={(e) => setText(l, "body", e.target.value)}
                />
              </FormField>
            </div>
          </Fieldset>
        ))}
        <FormField label="Add a language">
          <Select fit value="" onChange={(e) => e.target.value && setText(e.target.value, "headline", "")}>
            <option value="">Choose…</option>
            {LOCALES.filter((l) => !copy.has(l) && l !== defaultLocale).map((l) => (
              <option key={l} value={l}>
                {LOCALE_NAMES.get(l)}
              </option>
            ))}
          </Select>
        </FormField>
      </Panel>
      <Panel title="Who sees it" padded>
        <Fieldset legend="Readers (none ticked: everyone)">
          {AUDIENCES.map((a) => (
            <Checkbox
              key={a}
              label={AUDIENCE_LABELS.get(a)}
              checked={audiences.includes(a)}
              onChange={(e) => setAudiences(toggle(audiences, a, e.target.checked))}
            />
          ))}
        </Fieldset>
        <FormField
          label="From a newsletter"
          hint="utm_medium=email or newsletter, or ref=newsletter in the page's address."
        >
          <Select fit value={newsletter} onChange={(e) => setNewsletter(e.target.value)}>
            <option value="any">Any reader</option>
            <option value="true">Only readers from a newsletter</option>
            <option value="false">Only readers not from a newsletter</option>
          </Select>
        </FormField>
        <FormField label="Countries" hint="ISO codes, e.g. IN, US (empty: every country).">
          <Input value={countries} onChange={(e) => setCountries(e.target.value)} />
        </FormField>
        <Fieldset legend="Devices (none ticked: every device)">
          {DEVICES.map((d) => (
            <Checkbox
              key={d}
              label={d === "mobile" ? "Mobile" : "Desktop"}
              checked={devices.includes(d)}
              onChange={(e) => setDevices(toggle(devices, d, e.target.checked))}
            />
          ))}
        </Fieldset>
      </Panel>
      {localError ? (
        <p role="alert" className="text-sm text-red-700" data-testid="offer-form-error">
          {localError}
        </p>
      ) : null}
      <ErrorAlert error={error} />
      <FormActions>
        <Button type="submit" variant="primary" loading={pending} loadingText="Saving…">
          Save offer
        </Button>
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
      </FormActions>
    </form>
  );
}
