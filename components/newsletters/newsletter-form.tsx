"use client";

/**
 * Create or edit a newsletter: name and slug, sender, design (logo, colours, footer with the postal
 * address), audience (with the plans of a paying audience), tracking and the digest. Checked with
 * the server's own schema before it is sent, so each field shows its problem; the server's answers
 * (a slug in use, a plan not of the account) land on their fields too.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Checkbox,
  ErrorAlert,
  Fieldset,
  FormField,
  Input,
  RadioChoices,
  Select,
  serverErrors,
  SubmitActions,
  Textarea,
} from "@/components/ui";
import { PageLink } from "@/components/ui/page-link";
import {
  AUDIENCE_LABELS,
  NEWSLETTER_AUDIENCES,
  ZNewsletterInput,
  type TNewsletterFormInput,
  type TNewsletterInput,
  type TNewsletterView,
} from "@/server/newsletters/newsletters.schema";
import { nullPrototypeRecord, ownValue } from "@/server/own-keys";

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

type Values = {
  name: string;
  slug: string;
  description: string;
  senderName: string;
  senderEmail: string;
  replyTo: string;
  logoUrl: string;
  accentColor: string;
  backgroundColor: string;
  footer: string;
  audience: TNewsletterInput["audience"];
  planIds: number[];
  trackOpens: boolean;
  trackClicks: boolean;
  digestCollectionId: string;
  digestDays: number[];
  digestTime: string;
};

function initialValues(n?: TNewsletterView): Values {
  return {
    name: n?.name ?? "",
    slug: n?.slug ?? "",
    description: n?.description ?? "",
    senderName: n?.senderName ?? "",
    senderEmail: n?.senderEmail ?? "",
    replyTo: n?.replyTo ?? "",
    logoUrl: n?.design.logoUrl ?? "",
    accentColor: n?.design.accentColor ?? "#1d4ed8",
    backgroundColor: n?.design.backgroundColor ?? "#ffffff",
    footer: n?.design.footer ?? "",
    audience: n?.audience ?? "OPT_IN",
    planIds: n?.planIds ?? [],
    trackOpens: n?.trackOpens ?? false,
    trackClicks: n?.trackClicks ?? true,
    digestCollectionId: n?.digestCollectionId ? String(n.digestCollectionId) : "",
    digestDays: n?.digestSchedule?.days ?? [1],
    digestTime: n?.digestSchedule?.time ?? "07:00",
  };
}

function toInput(v: Values): TNewsletterFormInput {
  const digest = v.digestCollectionId !== "";
  return {
    name: v.name,
    slug: v.slug,
    description: v.description,
    senderName: v.senderName,
    senderEmail: v.senderEmail,
    replyTo: v.replyTo,
    design: { logoUrl: v.logoUrl, accentColor: v.accentColor, backgroundColor: v.backgroundColor, footer: v.footer },
    audience: v.audience,
    planIds: v.audience === "PAYING" ? v.planIds : [],
    trackOpens: v.trackOpens,
    trackClicks: v.trackClicks,
    digestCollectionId: digest ? Number(v.digestCollectionId) : null,
    digestSchedule: digest ? { days: v.digestDays, time: v.digestTime } : null,
  };
}

/** The form's fields, named as the schema's paths ("design.footer", "digestSchedule.days"). */
const FIELDS = [
  "name",
  "slug",
  "description",
  "senderName",
  "senderEmail",
  "replyTo",
  "design",
  "audience",
  "planIds",
  "digestCollectionId",
  "digestSchedule",
] as const;

/** A list with `item` added (`on`) or taken out. */
const toggled = (list: number[], item: number, on: boolean) => (on ? [...list, item] : list.filter((i) => i !== item));

/** What each group of fields is given: the values, a setter and the problem of a field by its path. */
type Part = {
  values: Values;
  set: (patch: Partial<Values>) => void;
  fieldError: (path: string) => string | undefined;
};

/**
 * The form's values and their problems: the client's check (the server's own schema, naming
 * nested paths) first, then what the server said about its top-level fields.
 */
function useNewsletterForm(initial: TNewsletterView | undefined, error: unknown) {
  const [values, setValues] = useState<Values>(() => initialValues(initial));
  const [local, setLocal] = useState<Record<string, string>>({});
  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  const server = serverErrors(error, FIELDS);
  const fieldError = (path: string) =>
    ownValue(local, path) ?? ownValue(server.fields as Record<string, string | undefined>, path);
  const firstUnder = (prefix: string) =>
    Object.entries(local).find(([path]) => path === prefix || path.startsWith(`${prefix}.`))?.[1] ??
    ownValue(server.fields as Record<string, string | undefined>, prefix);
  /** The checked input, or null (and the problems shown) when it does not pass. */
  const checked = (): TNewsletterInput | null => {
    const parsed = ZNewsletterInput.safeParse(toInput(values));
    if (!parsed.success) {
      const problems = nullPrototypeRecord<string>();
      for (const issue of parsed.error.issues) problems[issue.path.join(".")] ??= issue.message;
      setLocal(problems);
      return null;
    }
    setLocal({});
    return parsed.data;
  };
  return { values, set, server, fieldError, firstUnder, checked, hasLocal: Object.keys(local).length > 0 };
}

export function NewsletterForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: TNewsletterView;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: TNewsletterInput) => void;
  onCancel?: () => void;
}) {
  const trpc = useTRPC();
  const options = useQuery(trpc.newsletters.options.queryOptions());
  const form = useNewsletterForm(initial, error);
  const part: Part = { values: form.values, set: form.set, fieldError: form.fieldError };

  return (
    <form
      noValidate
      className="space-y-6"
      onSubmit={(event) => {
        event.preventDefault();
        const input = form.checked();
        if (input) onSubmit(input);
      }}
    >
      {form.hasLocal ? (
        <ErrorAlert errors={{ message: "Please correct the highlighted fields.", fields: {}, others: [] }} />
      ) : (
        <ErrorAlert error={error} errors={form.server} />
      )}

      <NameFields {...part} />
      <SenderFields {...part} />
      <DesignFields {...part} />
      <AudienceFields {...part} planError={form.firstUnder("planIds")} options={options} />
      <TrackingFields {...part} />
      <DigestFields {...part} options={options} />

      <SubmitActions label={submitLabel} pending={pending} pendingText="Saving…" onCancel={onCancel} />
    </form>
  );
}

type Options = { data?: RouterOutputs["newsletters"]["options"]; isPending: boolean };

function NameFields({ values, set, fieldError }: Part) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" error={fieldError("name")}>
          <Input value={values.name} maxLength={100} onChange={(e) => set({ name: e.target.value })} />
        </FormField>
        <FormField
          label="Slug"
          hint="Lower-case letters, digits and hyphens; unique in the account."
          error={fieldError("slug")}
        >
          <Input value={values.slug} maxLength={60} onChange={(e) => set({ slug: e.target.value })} />
        </FormField>
      </div>
      <FormField label="Description" optional error={fieldError("description")}>
        <Textarea
          rows={2}
          value={values.description}
          maxLength={500}
          onChange={(e) => set({ description: e.target.value })}
        />
      </FormField>
    </>
  );
}

function SenderFields({ values, set, fieldError }: Part) {
  return (
    <Fieldset legend="Sender">
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Sender name" error={fieldError("senderName")}>
          <Input value={values.senderName} maxLength={100} onChange={(e) => set({ senderName: e.target.value })} />
        </FormField>
        <FormField label="Sender e-mail" error={fieldError("senderEmail")}>
          <Input type="email" value={values.senderEmail} onChange={(e) => set({ senderEmail: e.target.value })} />
        </FormField>
        <FormField label="Reply-to" optional error={fieldError("replyTo")}>
          <Input type="email" value={values.replyTo} onChange={(e) => set({ replyTo: e.target.value })} />
        </FormField>
      </div>
    </Fieldset>
  );
}

function DesignFields({ values, set, fieldError }: Part) {
  return (
    <Fieldset legend="Design">
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Logo URL" optional hint="http:// or https://" error={fieldError("design.logoUrl")}>
          <Input type="url" value={values.logoUrl} onChange={(e) => set({ logoUrl: e.target.value })} />
        </FormField>
        <ColourField
          label="Accent colour"
          value={values.accentColor}
          error={fieldError("design.accentColor")}
          onChange={(accentColor) => set({ accentColor })}
        />
        <ColourField
          label="Background colour"
          value={values.backgroundColor}
          error={fieldError("design.backgroundColor")}
          onChange={(backgroundColor) => set({ backgroundColor })}
        />
      </div>
      <FormField
        className="mt-4"
        label="Footer"
        hint="Plain text, shown at the bottom of every mail: the publisher's postal address (anti-spam laws ask for it)."
        error={fieldError("design.footer")}
      >
        <Textarea rows={3} value={values.footer} maxLength={1000} onChange={(e) => set({ footer: e.target.value })} />
      </FormField>
    </Fieldset>
  );
}

function AudienceFields({
  values,
  set,
  fieldError,
  planError,
  options,
}: Part & { planError: string | undefined; options: Options }) {
  return (
    <>
      <Fieldset legend="Audience" error={fieldError("audience")}>
        <RadioChoices
          value={values.audience}
          options={NEWSLETTER_AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABELS[a] }))}
          onChange={(audience) => set({ audience })}
        />
      </Fieldset>
      {values.audience === "PAYING" ? (
        <Fieldset legend="Plans" error={planError}>
          <p className="mb-2 text-xs text-gray-600">None chosen: subscribers of any plan.</p>
          {options.data?.plans.length ? (
            <div className="grid gap-2 sm:grid-cols-2">
              {options.data.plans.map((plan) => (
                <Checkbox
                  key={plan.id}
                  label={plan.title}
                  checked={values.planIds.includes(plan.id)}
                  onChange={(e) => set({ planIds: toggled(values.planIds, plan.id, e.target.checked) })}
                />
              ))}
            </div>
          ) : (
            <p className="text-sm text-gray-600">
              {options.isPending ? "Loading plans…" : "This account has no plans yet."}
            </p>
          )}
        </Fieldset>
      ) : null}
    </>
  );
}

function TrackingFields({ values, set }: Part) {
  return (
    <Fieldset legend="Tracking">
      <div className="space-y-2">
        <Checkbox
          label="Count opens"
          description="Adds a tracking pixel to each mail. Off by default: many readers' mail apps block it, and some laws ask for consent."
          checked={values.trackOpens}
          onChange={(e) => set({ trackOpens: e.target.checked })}
        />
        <Checkbox
          label="Count clicks"
          description="Links go through Masthead, which counts the click and redirects."
          checked={values.trackClicks}
          onChange={(e) => set({ trackClicks: e.target.checked })}
        />
      </div>
    </Fieldset>
  );
}

function DigestFields({ values, set, fieldError, options }: Part & { options: Options }) {
  return (
    <Fieldset legend="Digest">
      <FormField
        label="Digest collection"
        hint="A collection's stories sent on a schedule."
        error={fieldError("digestCollectionId")}
      >
        <Select
          value={values.digestCollectionId}
          placeholder="No digest"
          options={(options.data?.collections ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          onChange={(e) => set({ digestCollectionId: e.target.value })}
        />
      </FormField>
      {values.digestCollectionId !== "" && options.data?.siteUrlSet === false ? (
        <p className="mt-3 text-sm text-amber-800" role="status" data-testid="digest-site-url-unset">
          Digests are not sent while the site&apos;s public URL is not set: the mail&apos;s story links would lead to
          Masthead&apos;s own address, which has no story pages. Set it in{" "}
          <PageLink href="/admin/settings" className="underline">
            Settings → Site
          </PageLink>
          ; until then each digest day is skipped, and the audit log says why.
        </p>
      ) : null}
      {values.digestCollectionId !== "" ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto]">
          <Fieldset legend="Days" error={fieldError("digestSchedule.days") ?? fieldError("digestSchedule")}>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {DAYS.map((day, index) => (
                <Checkbox
                  key={day}
                  label={day}
                  checked={values.digestDays.includes(index + 1)}
                  onChange={(e) => set({ digestDays: toggled(values.digestDays, index + 1, e.target.checked) })}
                />
              ))}
            </div>
          </Fieldset>
          <FormField label="Time" hint="In the account's time zone." error={fieldError("digestSchedule.time")}>
            <Input type="time" value={values.digestTime} onChange={(e) => set({ digestTime: e.target.value })} />
          </FormField>
        </div>
      ) : null}
    </Fieldset>
  );
}

function ColourField({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField label={label} hint="As #rrggbb" error={error}>
      <div className="flex items-center gap-2">
        <span
          aria-hidden="true"
          className="size-8 shrink-0 rounded border border-gray-300"
          style={{ backgroundColor: /^#[0-9a-fA-F]{6}$/.test(value) ? value : "transparent" }}
        />
        <Input value={value} maxLength={7} onChange={(e) => onChange(e.target.value)} />
      </div>
    </FormField>
  );
}
