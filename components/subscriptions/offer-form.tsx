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

/** What the form holds, as typed. */
type Draft = {
  name: string;
  priority: string;
  isDefault: boolean;
  enabled: boolean;
  planIds: number[];
  couponCode: string;
  trialDays: string;
  defaultLocale: string;
  copy: Copy;
  audiences: string[];
  newsletter: string;
  countries: string;
  devices: string[];
};

function draftOf(offer: TOfferView | null): Draft {
  return {
    name: offer?.name ?? "",
    priority: String(offer?.priority ?? 100),
    isDefault: offer?.isDefault ?? false,
    enabled: offer?.enabled ?? true,
    planIds: offer?.planIds ?? [],
    couponCode: offer?.couponCode ?? "",
    trialDays: offer?.trialDays ? String(offer.trialDays) : "",
    defaultLocale: offer?.defaultLocale ?? "en",
    copy: new Map(offer?.copy.map((c) => [c.locale, c]) ?? []),
    audiences: offer?.segment.audiences ?? [],
    newsletter: String(offer?.segment.newsletter ?? "any"),
    countries: offer?.segment.countries.join(", ") ?? "",
    devices: offer?.segment.devices ?? [],
  };
}

/** The draft as the schema reads it: copy of the default language and of any language with text. */
function inputOf(d: Draft) {
  return {
    name: d.name,
    priority: Number(d.priority),
    isDefault: d.isDefault,
    enabled: d.enabled,
    planIds: d.planIds,
    couponCode: d.couponCode.trim() || null,
    trialDays: d.trialDays.trim() ? Number(d.trialDays) : null,
    defaultLocale: d.defaultLocale,
    copy: [...d.copy.entries()]
      .filter(([locale, c]) => locale === d.defaultLocale || c.headline.trim() || c.body.trim())
      .map(([locale, c]) => ({ locale, ...c })),
    segment: {
      audiences: d.audiences,
      newsletter: d.newsletter === "any" ? null : d.newsletter === "true",
      countries: d.countries.split(/[\s,]+/).filter(Boolean),
      devices: d.devices,
    },
  };
}

const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

/** What each part of the form is given. */
type Part = { draft: Draft; set: (patch: Partial<Draft>) => void };

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
  const [draft, setDraft] = useState<Draft>(() => draftOf(offer));
  const [localError, setLocalError] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = ZOfferInput.safeParse(inputOf(draft));
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
        <OfferBasics draft={draft} set={set} plans={plans} />
      </Panel>
      <Panel title="Copy" padded>
        <OfferCopy draft={draft} setDraft={setDraft} />
      </Panel>
      <Panel title="Who sees it" padded>
        <OfferSegment draft={draft} set={set} />
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

function OfferBasics({ draft, set, plans }: Part & { plans: Plan[] }) {
  return (
    <>
      <FormField label="Name">
        <Input value={draft.name} onChange={(e) => set({ name: e.target.value })} maxLength={100} />
      </FormField>
      <div className="flex flex-wrap gap-4">
        <FormField label="Priority" hint="Lower is asked first.">
          <WholeNumberInput
            min={0}
            max={10000}
            value={draft.priority}
            onChange={(e) => set({ priority: e.target.value })}
          />
        </FormField>
        <FormField label="Trial days" hint="Empty: each plan's own trial.">
          <WholeNumberInput
            min={1}
            max={366}
            value={draft.trialDays}
            onChange={(e) => set({ trialDays: e.target.value })}
          />
        </FormField>
        <FormField label="Coupon code" hint="An existing coupon; empty: the plans' prices.">
          <Input value={draft.couponCode} onChange={(e) => set({ couponCode: e.target.value })} maxLength={64} />
        </FormField>
      </div>
      <Checkbox
        label="Default offer (when no other matches)"
        checked={draft.isDefault}
        onChange={(e) => set({ isDefault: e.target.checked })}
      />
      <Checkbox label="Enabled" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
      <Fieldset legend="Plans shown">
        {plans.map((p) => (
          <Checkbox
            key={p.id}
            label={`${p.title} (${p.group_name})`}
            checked={draft.planIds.includes(p.id)}
            onChange={(e) => set({ planIds: toggle(draft.planIds, p.id, e.target.checked) })}
          />
        ))}
      </Fieldset>
    </>
  );
}

function OfferCopy({ draft, setDraft }: { draft: Draft; setDraft: (update: (d: Draft) => Draft) => void }) {
  const { copy, defaultLocale } = draft;
  const setText = (locale: string, key: "headline" | "body", value: string) =>
    setDraft((d) => {
      const next = new Map(d.copy);
      next.set(locale, { ...(next.get(locale) ?? { headline: "", body: "" }), [key]: value });
      return { ...d, copy: next };
    });
  return (
    <>
      <FormField label="Default language" hint="Readers of a language without copy see this one.">
        <Select fit value={defaultLocale} onChange={(e) => setDraft((d) => ({ ...d, defaultLocale: e.target.value }))}>
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
              <Textarea rows={3} value={copy.get(l)?.body ?? ""} onChange={(e) => setText(l, "body", e.target.value)} />
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
    </>
  );
}

function OfferSegment({ draft, set }: Part) {
  return (
    <>
      <Fieldset legend="Readers (none ticked: everyone)">
        {AUDIENCES.map((a) => (
          <Checkbox
            key={a}
            label={AUDIENCE_LABELS.get(a)}
            checked={draft.audiences.includes(a)}
            onChange={(e) => set({ audiences: toggle(draft.audiences, a, e.target.checked) })}
          />
        ))}
      </Fieldset>
      <FormField
        label="From a newsletter"
        hint="utm_medium=email or newsletter, or ref=newsletter in the page's address."
      >
        <Select fit value={draft.newsletter} onChange={(e) => set({ newsletter: e.target.value })}>
          <option value="any">Any reader</option>
          <option value="true">Only readers from a newsletter</option>
          <option value="false">Only readers not from a newsletter</option>
        </Select>
      </FormField>
      <FormField label="Countries" hint="ISO codes, e.g. IN, US (empty: every country).">
        <Input value={draft.countries} onChange={(e) => set({ countries: e.target.value })} />
      </FormField>
      <Fieldset legend="Devices (none ticked: every device)">
        {DEVICES.map((d) => (
          <Checkbox
            key={d}
            label={d === "mobile" ? "Mobile" : "Desktop"}
            checked={draft.devices.includes(d)}
            onChange={(e) => set({ devices: toggle(draft.devices, d, e.target.checked) })}
          />
        ))}
      </Fieldset>
    </>
  );
}
