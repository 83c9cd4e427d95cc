"use client";

/**
 * The Settings page: everything GET /api/v1/config serves that an owner edits, saved at once
 * (settings.update). The menu is either the sections (the default) or a list edited here.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  errorDetails,
  Fieldset,
  FormField,
  Input,
  Panel,
  RadioChoices,
  Select,
  SettingsFormShell,
  SettingsLoader,
  Textarea,
  useOnSaved,
  useSettingsDraft,
  type SettingsEditorProps,
} from "@/components/ui";
import type { TPublisherSettingsView } from "@/server/publishing/settings.schema";

import { MenuEditor } from "./menu-editor";

type Settings = TPublisherSettingsView["settings"];
/** The settings as the form edits them: the two host lists as typed, one host a line. */
type Draft = Omit<Settings, "siteDomains" | "externalImageHosts"> & { siteDomains: string; externalImageHosts: string };
type Field = (typeof FIELDS)[number];

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
  return (
    // A save remounts the editor with the saved values (its key is their update time).
    <SettingsLoader<TPublisherSettingsView>
      query={useQuery(trpc.settings.get.queryOptions())}
      what="settings"
      editorKey={(view) => view.updatedAt?.getTime() ?? 0}
    >
      {(editor) => <Editor {...editor} />}
    </SettingsLoader>
  );
}

/** What each of the form's panels is given: the saved view, the draft and its problems. */
type PanelProps = {
  view: TPublisherSettingsView;
  draft: Draft;
  set: <K extends keyof Draft>(key: K, value: Draft[K]) => void;
  error: (field: Field) => string | undefined;
  /** A nested field's problem (seo.title, menu.2.url) by its full path. */
  detailOf: (field: string) => string | undefined;
  /** The first problem of a field's parts (externalImageHosts.1). */
  firstUnder: (prefix: string) => string | undefined;
};

function Editor({ view, saved, setSaved }: SettingsEditorProps<TPublisherSettingsView>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: useOnSaved(setSaved, trpc.settings.get.queryKey(), (result) =>
        queryClient.setQueryData(trpc.settings.get.queryKey(), result.view),
      ),
    }),
  );
  const { draft, set, errors, error } = useSettingsDraft<Draft, Field>({
    initial: {
      ...view.settings,
      siteDomains: view.settings.siteDomains.join("\n"),
      externalImageHosts: view.settings.externalImageHosts.join("\n"),
    },
    fields: FIELDS,
    serverError: update.error,
    onEdit: () => setSaved(null),
  });
  const details = errorDetails(update.error);
  const panel: PanelProps = {
    view,
    draft,
    set: (key, value) => set({ [key]: value }),
    error,
    detailOf: (field) => details.find((d) => d.field === field)?.issue,
    firstUnder: (prefix) => details.find((d) => d.field.startsWith(`${prefix}.`))?.issue,
  };

  return (
    <SettingsFormShell
      aria-label="Settings"
      onSave={() => {
        setSaved(null);
        update.mutate({
          ...draft,
          siteDomains: lines(draft.siteDomains),
          externalImageHosts: lines(draft.externalImageHosts),
        });
      }}
      errors={errors}
      saving={update.isPending}
      savedNote={
        saved ? (saved.length ? "Settings saved. Front ends see them within a few seconds." : "Nothing changed.") : null
      }
      savedTestId="settings-saved"
      saveLabel="Save settings"
      saveSize="lg"
    >
      {!view.siteUrlSet ? (
        <Alert tone="warning" data-testid="site-url-missing">
          The site&apos;s public URL is not set: it is Masthead&apos;s own address ({view.appUrl}) for now, which has no
          story pages and no password reset page. Story &quot;view&quot; links and the links in members&apos; password
          reset e-mails lead nowhere until you set it.
        </Alert>
      ) : null}
      <SitePanel {...panel} />
      <ImagesPanel {...panel} />
      <SeoPanel {...panel} />
      <LanguagePanel {...panel} />
      <MenuPanel {...panel} />
    </SettingsFormShell>
  );
}

function SitePanel({ view, draft, set, error }: PanelProps) {
  return (
    <Panel title="Site" padded>
      <div className="space-y-4">
        <FormField label="Publication name" error={error("name")}>
          <Input required maxLength={200} value={draft.name} onChange={(e) => set("name", e.target.value)} />
        </FormField>
        <FormField
          label="Time zone"
          hint="Every time in the dashboard is shown in this zone, for every member of staff. Readers see their own."
          error={error("timeZone")}
        >
          <Select
            value={draft.timeZone}
            options={timeZoneOptions(draft.timeZone)}
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
          error={error("siteUrl")}
        >
          <Input
            type="url"
            maxLength={500}
            placeholder="https://news.example.com"
            value={draft.siteUrl}
            onChange={(e) => set("siteUrl", e.target.value)}
          />
        </FormField>
        <FormField
          label="Other domains of the publication"
          optional
          hint="One host per line (www.example.com, m.example.com), no https://. Comments are accepted only on pages of the site URL's host and these."
          error={error("siteDomains")}
        >
          <Textarea rows={3} value={draft.siteDomains} onChange={(e) => set("siteDomains", e.target.value)} />
        </FormField>
      </div>
    </Panel>
  );
}

function ImagesPanel({ view, draft, set, error, firstUnder }: PanelProps) {
  return (
    <Panel title="Images and logo" padded>
      <div className="space-y-4">
        <FormField
          label="Image CDN host"
          optional
          hint={`Host (and path) that image keys are appended to, without https://. Empty: Masthead serves images itself (${view.defaultCdnImage}).`}
          error={error("cdnImage")}
        >
          <Input
            maxLength={300}
            placeholder={view.defaultCdnImage}
            value={draft.cdnImage}
            onChange={(e) => set("cdnImage", e.target.value)}
          />
        </FormField>
        <FormField
          label="External image hosts"
          optional
          hint="One host per line (images.example.com, or *.example.com for its subdomains), no https://. Stories, collections and content imports may use image URLs on these hosts; other images must be uploaded."
          error={error("externalImageHosts") ?? firstUnder("externalImageHosts")}
        >
          <Textarea
            rows={3}
            value={draft.externalImageHosts}
            onChange={(e) => set("externalImageHosts", e.target.value)}
          />
        </FormField>
        <FormField label="Logo URL" optional hint="An http(s) image address." error={error("logoUrl")}>
          <Input
            type="url"
            maxLength={2000}
            placeholder="https://images.example.com/logo.png"
            value={draft.logoUrl}
            onChange={(e) => set("logoUrl", e.target.value)}
          />
        </FormField>
      </div>
    </Panel>
  );
}

function SeoPanel({ draft, set, detailOf }: PanelProps) {
  const setSeo = (patch: Partial<Settings["seo"]>) => set("seo", { ...draft.seo, ...patch });
  return (
    <Panel title="SEO defaults" padded>
      <div className="space-y-4">
        <p className="text-sm text-gray-600">
          The home page&apos;s title, description and keywords; pages without their own use them.
        </p>
        <FormField label="Title" optional error={detailOf("seo.title")}>
          <Input maxLength={200} value={draft.seo.title} onChange={(e) => setSeo({ title: e.target.value })} />
        </FormField>
        <FormField label="Description" optional error={detailOf("seo.description")}>
          <Textarea
            rows={2}
            maxLength={500}
            value={draft.seo.description}
            onChange={(e) => setSeo({ description: e.target.value })}
          />
        </FormField>
        <FormField label="Keywords" optional hint="Separated by commas." error={detailOf("seo.keywords")}>
          <Input maxLength={500} value={draft.seo.keywords} onChange={(e) => setSeo({ keywords: e.target.value })} />
        </FormField>
      </div>
    </Panel>
  );
}

function LanguagePanel({ draft, set, detailOf }: PanelProps) {
  const setLanguage = (patch: Partial<Settings["language"]>) => set("language", { ...draft.language, ...patch });
  return (
    <Panel title="Language" padded>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Language code" hint="ISO 639: en, fr, hi …" error={detailOf("language.isoCode")}>
          <Input
            required
            maxLength={3}
            value={draft.language.isoCode}
            onChange={(e) => setLanguage({ isoCode: e.target.value })}
          />
        </FormField>
        <FormField label="Language tag" hint="en-US, fr-FR …" error={detailOf("language.ietfCode")}>
          <Input
            required
            maxLength={35}
            value={draft.language.ietfCode}
            onChange={(e) => setLanguage({ ietfCode: e.target.value })}
          />
        </FormField>
        <Fieldset legend="Direction" error={detailOf("language.direction")}>
          <RadioChoices
            name="direction"
            value={draft.language.direction}
            options={[
              { value: "ltr", label: "Left to right" },
              { value: "rtl", label: "Right to left" },
            ]}
            onChange={(direction) => setLanguage({ direction })}
          />
        </Fieldset>
      </div>
    </Panel>
  );
}

function MenuPanel({ draft, set, firstUnder }: PanelProps) {
  const trpc = useTRPC();
  const sections = useQuery(trpc.organise.sections.list.queryOptions());
  const sectionOptions = (sections.data ?? []).map((s) => ({
    value: String(s.id),
    label: `${"— ".repeat(s.depth)}${s.name}`,
  }));
  return (
    <Panel title="Menu" padded>
      <div className="space-y-4">
        <Fieldset legend="What the menu lists" hideLegend>
          <RadioChoices
            name="menu-kind"
            value={draft.menu === null ? "sections" : "custom"}
            options={[
              { value: "sections", label: "The sections (default)" },
              { value: "custom", label: "These items" },
            ]}
            onChange={(kind) => set("menu", kind === "sections" ? null : (draft.menu ?? []))}
          />
        </Fieldset>
        {draft.menu !== null ? (
          <MenuEditor
            items={draft.menu}
            sectionOptions={sectionOptions}
            error={firstUnder("menu")}
            onChange={(menu) => set("menu", menu)}
          />
        ) : null}
      </div>
    </Panel>
  );
}
