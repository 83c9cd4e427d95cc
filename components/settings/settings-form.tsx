"use client";

/**
 * The Settings page: everything GET /api/v1/config serves that an owner edits, saved at once
 * (settings.update). The menu is either the sections (the default) or a list edited here.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  ErrorAlert,
  errorDetails,
  Fieldset,
  FormActions,
  FormField,
  Input,
  LoadState,
  Panel,
  RadioChoices,
  Select,
  Textarea,
  useOnSaved,
  useSettingsDraft,
  type SettingsEditorProps,
} from "@/components/ui";
import type { TPublisherSettingsView } from "@/server/publishing/settings.schema";

type Settings = TPublisherSettingsView["settings"];
type MenuItem = NonNullable<Settings["menu"]>[number];

const FIELDS = [
  "name",
  "timeZone",
  "siteUrl",
  "siteDomains",
  "cdnImage",
  "externalImageHosts",
  "logoUrl",
  "seo",
  "language",
  "menu",
] as const;

/** The zones this browser knows (IANA names), with `current` kept even if it does not. */
function timeZoneOptions(current: string) {
  const zones = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  if (!zones.includes(current)) zones.unshift(current);
  return zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, " ") }));
}

/** The entries of a one-per-line (or comma separated) list, empty ones dropped. */
const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

export function SettingsForm() {
  const trpc = useTRPC();
  const query = useQuery(trpc.settings.get.queryOptions());
  // Kept here: a save remounts the editor with the saved values (its key is their update time).
  const [saved, setSaved] = useState<string[] | null>(null);
  return (
    <div className="space-y-6">
      <LoadState query={query} what="settings" />
      {query.data ? (
        <Editor key={query.data.updatedAt?.getTime() ?? 0} view={query.data} saved={saved} setSaved={setSaved} />
      ) : null}
    </div>
  );
}

// eslint-disable-next-line max-lines-per-function -- one form's draft, save and fields in the page's order; not yet cut into field groups (TODO(issue 62))
function Editor({ view, saved, setSaved }: SettingsEditorProps<TPublisherSettingsView>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sections = useQuery(trpc.organise.sections.list.queryOptions());
  const [domainsText, setDomainsText] = useState(view.settings.siteDomains.join("\n"));
  const [imageHostsText, setImageHostsText] = useState(view.settings.externalImageHosts.join("\n"));
  const update = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: useOnSaved(setSaved, trpc.settings.get.queryKey(), (result) =>
        queryClient.setQueryData(trpc.settings.get.queryKey(), result.view),
      ),
    }),
  );
  const {
    draft: values,
    set: patch,
    errors,
  } = useSettingsDraft<Settings, (typeof FIELDS)[number]>({
    initial: view.settings,
    fields: FIELDS,
    serverError: update.error,
    onEdit: () => setSaved(null),
  });
  // Nested fields (seo.title, menu.2.url) by their full path.
  const details = errorDetails(update.error);
  const detailOf = (field: string) => details.find((d) => d.field === field)?.issue;
  const firstUnder = (prefix: string) => details.find((d) => d.field.startsWith(`${prefix}.`))?.issue;
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => patch({ [key]: value });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    update.mutate({
      ...values,
      siteDomains: lines(domainsText),
      externalImageHosts: lines(imageHostsText),
    });
  }

  const sectionOptions = (sections.data ?? []).map((s) => ({
    value: String(s.id),
    label: `${"— ".repeat(s.depth)}${s.name}`,
  }));

  return (
    <form onSubmit={submit} className="space-y-6" aria-label="Settings">
      {!view.siteUrlSet ? (
        <Alert tone="warning" data-testid="site-url-missing">
          The site&apos;s public URL is not set: it is Masthead&apos;s own address ({view.appUrl}) for now, which has no
          story pages and no password reset page. Story &quot;view&quot; links and the links in members&apos; password
          reset e-mails lead nowhere until you set it.
        </Alert>
      ) : null}

      <Panel title="Site" padded>
        <div className="space-y-4">
          <FormField label="Publication name" error={errors.fields.name}>
            <Input required maxLength={200} value={values.name} onChange={(e) => set("name", e.target.value)} />
          </FormField>
          <FormField
            label="Time zone"
            hint="Every time in the dashboard is shown in this zone, for every member of staff. Readers see their own."
            error={errors.fields.timeZone}
          >
            <Select
              value={values.timeZone}
              options={timeZoneOptions(values.timeZone)}
              onChange={(e) => set("timeZone", e.target.value)}
            />
          </FormField>
          <FormField
            label="Public URL of the site"
            hint={
              <>
                Where readers read the publication, e.g. https://news.example.com. Stories are linked as{" "}
                <code>&lt;site&gt;/&lt;slug&gt;</code>, member password resets as{" "}
                <code>&lt;site&gt;/reset-password?token=…</code>. Empty: Masthead&apos;s own address ({view.appUrl}).
              </>
            }
            error={errors.fields.siteUrl}
          >
            <Input
              type="url"
              maxLength={500}
              placeholder="https://news.example.com"
              value={values.siteUrl}
              onChange={(e) => set("siteUrl", e.target.value)}
            />
          </FormField>
          <FormField
            label="Other domains of the publication"
            optional
            hint="One host per line (www.example.com, m.example.com), no https://. Comments are accepted only on pages of the site URL's host and these."
            error={errors.fields.siteDomains}
          >
            <Textarea
              rows={3}
              value={domainsText}
              onChange={(e) => {
                setSaved(null);
                setDomainsText(e.target.value);
              }}
            />
          </FormField>
        </div>
      </Panel>

      <Panel title="Images and logo" padded>
        <div className="space-y-4">
          <FormField
            label="Image CDN host"
            optional
            hint={`Host (and path) that image keys are appended to, without https://. Empty: Masthead serves images itself (${view.defaultCdnImage}).`}
            error={errors.fields.cdnImage}
          >
            <Input
              maxLength={300}
              placeholder={view.defaultCdnImage}
              value={values.cdnImage}
              onChange={(e) => set("cdnImage", e.target.value)}
            />
          </FormField>
          <FormField
            label="External image hosts"
            optional
            hint="One host per line (images.example.com, or *.example.com for its subdomains), no https://. Stories, collections and content imports may use image URLs on these hosts; other images must be uploaded."
            error={errors.fields.externalImageHosts ?? firstUnder("externalImageHosts")}
          >
            <Textarea
              rows={3}
              value={imageHostsText}
              onChange={(e) => {
                setSaved(null);
                setImageHostsText(e.target.value);
              }}
            />
          </FormField>
          <FormField label="Logo URL" optional hint="An http(s) image address." error={errors.fields.logoUrl}>
            <Input
              type="url"
              maxLength={2000}
              placeholder="https://images.example.com/logo.png"
              value={values.logoUrl}
              onChange={(e) => set("logoUrl", e.target.value)}
            />
          </FormField>
        </div>
      </Panel>

      <Panel title="SEO defaults" padded>
        <div className="space-y-4">
          <p className="text-sm text-gray-600">
            The home page&apos;s title, description and keywords; pages without their own use them.
          </p>
          <FormField label="Title" optional error={detailOf("seo.title")}>
            <Input
              maxLength={200}
              value={values.seo.title}
              onChange={(e) => set("seo", { ...values.seo, title: e.target.value })}
            />
          </FormField>
          <FormField label="Description" optional error={detailOf("seo.description")}>
            <Textarea
              rows={2}
              maxLength={500}
              value={values.seo.description}
              onChange={(e) => set("seo", { ...values.seo, description: e.target.value })}
            />
          </FormField>
          <FormField label="Keywords" optional hint="Separated by commas." error={detailOf("seo.keywords")}>
            <Input
              maxLength={500}
              value={values.seo.keywords}
              onChange={(e) => set("seo", { ...values.seo, keywords: e.target.value })}
            />
          </FormField>
        </div>
      </Panel>

      <Panel title="Language" padded>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField label="Language code" hint="ISO 639: en, fr, hi …" error={detailOf("language.isoCode")}>
            <Input
              required
              maxLength={3}
              value={values.language.isoCode}
              onChange={(e) => set("language", { ...values.language, isoCode: e.target.value })}
            />
          </FormField>
          <FormField label="Language tag" hint="en-US, fr-FR …" error={detailOf("language.ietfCode")}>
            <Input
              required
              maxLength={35}
              value={values.language.ietfCode}
              onChange={(e) => set("language", { ...values.language, ietfCode: e.target.value })}
            />
          </FormField>
          <Fieldset legend="Direction" error={detailOf("language.direction")}>
            <RadioChoices
              name="direction"
              value={values.language.direction}
              options={[
                { value: "ltr", label: "Left to right" },
                { value: "rtl", label: "Right to left" },
              ]}
              onChange={(direction) => set("language", { ...values.language, direction })}
            />
          </Fieldset>
        </div>
      </Panel>

      <Panel title="Menu" padded>
        <div className="space-y-4">
          <Fieldset legend="What the menu lists" hideLegend>
            <RadioChoices
              name="menu-kind"
              value={values.menu === null ? "sections" : "custom"}
              options={[
                { value: "sections", label: "The sections (default)" },
                { value: "custom", label: "These items" },
              ]}
              onChange={(kind) => set("menu", kind === "sections" ? null : (values.menu ?? []))}
            />
          </Fieldset>
          {values.menu !== null ? (
            <MenuEditor
              items={values.menu}
              sectionOptions={sectionOptions}
              error={firstUnder("menu")}
              onChange={(menu) => set("menu", menu)}
            />
          ) : null}
        </div>
      </Panel>

      <ErrorAlert errors={errors} />
      {saved ? (
        <Alert tone="success" data-testid="settings-saved">
          {saved.length ? "Settings saved. Front ends see them within a few seconds." : "Nothing changed."}
        </Alert>
      ) : null}
      <FormActions>
        <Button type="submit" variant="primary" size="lg" loading={update.isPending} loadingText="Saving…">
          Save settings
        </Button>
      </FormActions>
    </form>
  );
}

function MenuEditor({
  items,
  sectionOptions,
  error,
  onChange,
}: {
  items: MenuItem[];
  sectionOptions: { value: string; label: string }[];
  error?: string;
  onChange: (items: MenuItem[]) => void;
}) {
  const replace = (index: number, item: MenuItem) => onChange(items.map((it, i) => (i === index ? item : it)));
  const move = (index: number, by: number) => {
    const next = [...items];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  return (
    <div className="space-y-3">
      {error ? (
        <p className="text-xs text-red-700" role="alert">
          A menu item is not right: {error}
        </p>
      ) : null}
      {items.length === 0 ? <p className="text-sm text-gray-500">No items yet.</p> : null}
      <ol className="space-y-3">
        {items.map((item, index) => (
          <li key={index} className="rounded-md border border-gray-200 p-3" data-testid="menu-item">
            <div className="grid gap-3 sm:grid-cols-[1fr_10rem_1fr]">
              <FormField label={`Item ${index + 1} title`}>
                <Input
                  required
                  maxLength={100}
                  value={item.title}
                  onChange={(e) => replace(index, { ...item, title: e.target.value })}
                />
              </FormField>
              <FormField label={`Item ${index + 1} kind`}>
                <Select
                  value={item.type}
                  options={[
                    { value: "section", label: "Section" },
                    { value: "tag", label: "Tag" },
                    { value: "link", label: "Link" },
                  ]}
                  onChange={(e) => replace(index, { title: item.title, type: e.target.value as MenuItem["type"] })}
                />
              </FormField>
              {item.type === "section" ? (
                <FormField label={`Item ${index + 1} section`}>
                  <Select
                    required
                    value={item.sectionId === undefined ? "" : String(item.sectionId)}
                    placeholder="Choose a section"
                    options={sectionOptions}
                    onChange={(e) =>
                      replace(index, { ...item, sectionId: e.target.value ? Number(e.target.value) : undefined })
                    }
                  />
                </FormField>
              ) : item.type === "tag" ? (
                <FormField label={`Item ${index + 1} tag slug`}>
                  <Input
                    required
                    maxLength={100}
                    value={item.tagSlug ?? ""}
                    onChange={(e) => replace(index, { ...item, tagSlug: e.target.value })}
                  />
                </FormField>
              ) : (
                <FormField label={`Item ${index + 1} address`}>
                  <Input
                    required
                    maxLength={2000}
                    placeholder="/about or https://…"
                    value={item.url ?? ""}
                    onChange={(e) => replace(index, { ...item, url: e.target.value })}
                  />
                </FormField>
              )}
            </div>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                size="sm"
                disabled={index === 0}
                onClick={() => move(index, -1)}
                aria-label={`Move item ${index + 1} up`}
              >
                ↑ Up
              </Button>
              <Button
                size="sm"
                disabled={index === items.length - 1}
                onClick={() => move(index, 1)}
                aria-label={`Move item ${index + 1} down`}
              >
                ↓ Down
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onChange(items.filter((_, i) => i !== index))}
                aria-label={`Remove item ${index + 1}`}
              >
                Remove
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <Button
        onClick={() => onChange([...items, { title: "", type: sectionOptions.length ? "section" : "link" }])}
        disabled={items.length >= 100}
      >
        Add menu item
      </Button>
    </div>
  );
}
