"use client";

/**
 * Settings → Member logins: the social / OpenID Connect providers readers can log in with
 * (POST /api/login/<name>), per publication (tRPC loginProviders.*, owners). The client secret is
 * write-only: the list says whether one is set.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  ErrorAlert,
  FormActions,
  FormField,
  Input,
  LoadState,
  Panel,
  Select,
  serverErrors,
  Table,
  Textarea,
  useConfirm,
  type ServerErrors,
} from "@/components/ui";
import type { TLoginProviderView } from "@/server/members/social-login.schema";

const FIELDS = ["name", "kind", "issuer", "clientIds", "clientSecret"] as const;

type Draft = {
  name: string;
  kind: "" | "oidc" | "facebook";
  issuer: string;
  clientIds: string;
  clientSecret: string;
  enabled: boolean;
};
const EMPTY: Draft = { name: "", kind: "", issuer: "", clientIds: "", clientSecret: "", enabled: true };

/** What a save sends: the draft with its empty optional fields left out, the client ids as a list. */
function inputOf(draft: Draft) {
  return {
    name: draft.name,
    ...(draft.kind ? { kind: draft.kind } : {}),
    ...(draft.issuer.trim() ? { issuer: draft.issuer.trim() } : {}),
    clientIds: draft.clientIds
      .split(/[\s,]+/)
      .map((c) => c.trim())
      .filter(Boolean),
    ...(draft.clientSecret.trim() ? { clientSecret: draft.clientSecret.trim() } : {}),
    enabled: draft.enabled,
  };
}

/** A saved login as the form edits it (its secret is never shown: empty keeps it). */
function draftOf(p: TLoginProviderView): Draft {
  return {
    name: p.name,
    kind: p.kind,
    issuer: p.issuer,
    clientIds: p.clientIds.join("\n"),
    clientSecret: "",
    enabled: p.enabled,
  };
}

export function LoginProviders() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery(trpc.loginProviders.list.queryOptions());
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [saved, setSaved] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.loginProviders.list.queryKey() });
  const save = useMutation(
    trpc.loginProviders.save.mutationOptions({
      onSuccess: async (view) => {
        setSaved(view.name);
        setDraft(EMPTY);
        await refresh();
      },
    }),
  );
  const remove = useMutation(trpc.loginProviders.delete.mutationOptions({ onSuccess: refresh }));
  const errors = serverErrors(save.error, FIELDS);

  return (
    <Panel title="Member logins" padded>
      <div className="space-y-4">
        <p className="text-sm text-gray-600">
          Social and OpenID Connect logins for readers: the site posts the provider&apos;s token to{" "}
          <code>POST /api/login/&lt;name&gt;</code>. <code>google</code>, <code>apple</code> and <code>facebook</code>{" "}
          need only the client id (and Facebook&apos;s app secret); any other name needs its issuer.
        </p>
        <LoadState query={list} what="login providers" />
        {list.data && list.data.length > 0 ? (
          <ProvidersTable
            providers={list.data}
            onEdit={(p) => {
              setSaved(null);
              setDraft(draftOf(p));
            }}
            onRemove={async (p) => {
              if (await confirm({ title: `Remove the login "${p.name}"?`, confirmLabel: "Remove" })) {
                remove.mutate({ name: p.name });
              }
            }}
          />
        ) : null}
        {saved ? (
          <Alert tone="success" data-testid="login-provider-saved">
            Saved the login &quot;{saved}&quot;.
          </Alert>
        ) : null}
        <ErrorAlert errors={errors} />
        <ErrorAlert error={remove.error} />
        <ProviderForm
          draft={draft}
          set={(patch) => {
            setSaved(null);
            setDraft((d) => ({ ...d, ...patch }));
          }}
          errors={errors}
          saving={save.isPending}
          onSave={() => save.mutate(inputOf(draft))}
        />
      </div>
    </Panel>
  );
}

function ProvidersTable({
  providers,
  onEdit,
  onRemove,
}: {
  providers: TLoginProviderView[];
  onEdit: (p: TLoginProviderView) => void;
  onRemove: (p: TLoginProviderView) => Promise<void>;
}) {
  return (
    <Table
      label="Member logins"
      rows={providers}
      rowKey={(p) => p.name}
      rowProps={(p) => ({ "data-testid": `login-provider-${p.name}` })}
      columns={[
        { header: "Name", cell: (p) => <code>{p.name}</code> },
        { header: "Kind", cell: (p) => (p.kind === "oidc" ? "OpenID Connect" : "Facebook") },
        { header: "Issuer", cell: (p) => <span className="break-all">{p.issuer}</span> },
        { header: "Client ids", cell: (p) => <span className="break-all">{p.clientIds.join(", ")}</span> },
        {
          header: "State",
          cell: (p) => (
            <span className="flex flex-wrap gap-1">
              <Badge tone={p.enabled ? "green" : "gray"}>{p.enabled ? "on" : "off"}</Badge>
              {p.hasClientSecret ? <Badge tone="blue">secret set</Badge> : null}
            </span>
          ),
        },
        {
          header: "Actions",
          hideHeader: true,
          cell: (p) => (
            <span className="flex gap-2">
              <Button size="sm" onClick={() => onEdit(p)}>
                Edit
              </Button>
              <Button size="sm" variant="danger" onClick={() => onRemove(p)}>
                Remove
              </Button>
            </span>
          ),
        },
      ]}
    />
  );
}

function ProviderForm({
  draft,
  set,
  errors,
  saving,
  onSave,
}: {
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  errors: ServerErrors<(typeof FIELDS)[number]>;
  saving: boolean;
  onSave: () => void;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSave();
  }
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Add or change a member login">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" hint="google, apple, facebook, or your own (e.g. corp-sso)." error={errors.fields.name}>
          <Input required maxLength={40} value={draft.name} onChange={(e) => set({ name: e.target.value })} />
        </FormField>
        <FormField label="Kind" optional hint="Left empty for google, apple and facebook." error={errors.fields.kind}>
          <Select value={draft.kind} onChange={(e) => set({ kind: e.target.value as Draft["kind"] })}>
            <option value="">Default for the name</option>
            <option value="oidc">OpenID Connect</option>
            <option value="facebook">Facebook</option>
          </Select>
        </FormField>
      </div>
      <FormField
        label="Issuer"
        optional
        hint="OpenID Connect: the issuer URL (its /.well-known/openid-configuration is read). Facebook: the Graph API address. Empty: the default for the name."
        error={errors.fields.issuer}
      >
        <Input type="url" maxLength={500} value={draft.issuer} onChange={(e) => set({ issuer: e.target.value })} />
      </FormField>
      <FormField
        label="Client ids"
        hint="One per line: the audiences ID tokens must be for (web and app client ids). Facebook: the app id."
        error={errors.fields.clientIds}
      >
        <Textarea rows={2} required value={draft.clientIds} onChange={(e) => set({ clientIds: e.target.value })} />
      </FormField>
      <FormField
        label="Client secret"
        optional
        hint="Facebook: the app secret (required). OpenID Connect: only to accept access tokens by introspection. Empty: the stored one is kept."
        error={errors.fields.clientSecret}
      >
        <Input
          type="password"
          autoComplete="off"
          maxLength={500}
          value={draft.clientSecret}
          onChange={(e) => set({ clientSecret: e.target.value })}
        />
      </FormField>
      <Checkbox label="On" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
      <FormActions>
        <Button type="submit" variant="primary" disabled={saving}>
          Save login
        </Button>
      </FormActions>
    </form>
  );
}
