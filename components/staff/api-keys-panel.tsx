"use client";

/**
 * The account's API keys: each by its name and prefix (never the key), with its use and state.
 * "New key" makes a named key and shows it once; rotating one shows the new key once and keeps the
 * old one working for the grace period; revoking one stops it at once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  Code,
  DateTime,
  FormEnd,
  FormField,
  Input,
  ListError,
  ListNotice,
  ListPanel,
  PanelList,
  Select,
  serverErrors,
  ShownOnce,
  useConfirm,
} from "@/components/ui";
import {
  API_KEY_ROTATION_GRACE_HOURS,
  type TApiKeyView,
  type TCreatedApiKey,
  type TRotatedApiKey,
} from "@/server/accounts/api-keys.schema";

const KIND_LABELS = { CLIENT: "Client key (key parameter)", SERVER: "Server key (X-SUBAUTH)" } as const;

function KeyState({ apiKey }: { apiKey: TApiKeyView }) {
  if (apiKey.revokedAt) return <Badge tone="red">Revoked</Badge>;
  if (apiKey.expiresAt && !apiKey.live) return <Badge tone="gray">Expired</Badge>;
  if (apiKey.expiresAt)
    return (
      <Badge tone="amber">
        Rotated: works until <DateTime value={apiKey.expiresAt} />
      </Badge>
    );
  return <Badge tone="green">Active</Badge>;
}

function NewKeyForm({ onDone, onCancel }: { onDone: (created: TCreatedApiKey) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const [kind, setKind] = useState<TApiKeyView["kind"]>("SERVER");
  const [name, setName] = useState("");
  const create = useMutation(trpc.staff.apiKeys.create.mutationOptions({ onSuccess: onDone }));
  const errors = serverErrors(create.error, ["kind", "name"]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ kind, name });
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="New API key">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" hint="Who or what will use it, e.g. “Newsletter tool”." error={errors.fields.name}>
          <Input required maxLength={100} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
        </FormField>
        <FormField label="Kind" error={errors.fields.kind}>
          <Select
            value={kind}
            onChange={(e) => setKind(e.target.value as TApiKeyView["kind"])}
            options={[
              { value: "SERVER", label: KIND_LABELS.SERVER },
              { value: "CLIENT", label: KIND_LABELS.CLIENT },
            ]}
          />
        </FormField>
      </div>
      <FormEnd
        errors={errors}
        label="Create key"
        pending={create.isPending}
        pendingText="Creating…"
        onCancel={onCancel}
      />
    </form>
  );
}

export function ApiKeysPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery(trpc.staff.apiKeys.list.queryOptions());
  const [rotated, setRotated] = useState<TRotatedApiKey | null>(null);
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);
  const [adding, setAdding] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.staff.apiKeys.list.queryKey() });
  const rotate = useMutation(
    trpc.staff.apiKeys.rotate.mutationOptions({
      onSuccess: async (result) => {
        setCreated(null);
        setRotated(result);
        await refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.staff.apiKeys.revoke.mutationOptions({ onSuccess: refresh }));

  async function onRevoke(key: TApiKeyView) {
    const ok = await confirm({
      title: `Revoke ${key.name} (${key.prefix}…)?`,
      body: "It stops working at once: every client that still sends it is refused. This cannot be undone.",
      confirmLabel: "Revoke key",
      tone: "danger",
    });
    if (ok) revoke.mutate({ keyId: key.id });
  }

  async function onRotate(key: TApiKeyView) {
    const ok = await confirm({
      title: `Rotate ${key.prefix}…?`,
      body: `A new key replaces it. The old one keeps working for ${API_KEY_ROTATION_GRACE_HOURS} hours, so you can move your clients to the new one, then stops.`,
      confirmLabel: "Rotate key",
      tone: "primary",
    });
    if (ok) rotate.mutate({ keyId: key.id });
  }

  return (
    <ListPanel
      title="API keys"
      titleId="api-keys-title"
      query={list}
      what="API keys"
      emptyText="This account has no API keys yet: create one with “New key”."
      add={{
        label: "New key",
        formTitle: "New API key",
        open: adding,
        onOpen: () => setAdding(true),
        form: (
          <NewKeyForm
            onDone={(result) => {
              setAdding(false);
              setRotated(null);
              setCreated(result);
              void refresh();
            }}
            onCancel={() => setAdding(false)}
          />
        ),
      }}
      notices={
        <>
          {created ? (
            <NewKeyOnce value={created.key} onDone={() => setCreated(null)}>
              {created.created.name} ({KIND_LABELS[created.created.kind]}) works from now on.
            </NewKeyOnce>
          ) : null}
          {rotated ? (
            <NewKeyOnce value={rotated.key} onDone={() => setRotated(null)}>
              The old key {rotated.previous.prefix}… works until{" "}
              {rotated.previous.expiresAt ? <DateTime value={rotated.previous.expiresAt} /> : "now"}.
            </NewKeyOnce>
          ) : null}
          <ListError error={rotate.error} />
          <ListError error={revoke.error} />
        </>
      }
    >
      {(keys) => (
        <PanelList items={keys} itemKey={(key) => key.id} labelledBy="api-keys-title" rowTestId="api-key-row">
          {(key) => (
            <>
              <KeyDetails apiKey={key} />
              {key.live ? (
                <div className="flex flex-wrap gap-2">
                  {!key.expiresAt ? (
                    <Button
                      size="sm"
                      onClick={() => void onRotate(key)}
                      loading={rotate.isPending && rotate.variables?.keyId === key.id}
                      aria-label={`Rotate key ${key.prefix}`}
                    >
                      Rotate
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => void onRevoke(key)}
                    loading={revoke.isPending && revoke.variables?.keyId === key.id}
                    aria-label={`Revoke key ${key.prefix}`}
                  >
                    Revoke
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </PanelList>
      )}
    </ListPanel>
  );
}

/** A new key (made or rotated), shown this once. */
function NewKeyOnce({ value, onDone, children }: { value: string; onDone: () => void; children: ReactNode }) {
  return (
    <ListNotice>
      {/* Keyed by the key: a second rotation shows its key with a fresh Copy button. */}
      <ShownOnce
        key={value}
        title="Copy the new key now: it will not be shown again."
        value={value}
        onDone={onDone}
        testId="new-key-once"
        valueTestId="new-key-value"
      >
        {children}
      </ShownOnce>
    </ListNotice>
  );
}

/** A key's prefix, name, kind, dates and state. */
function KeyDetails({ apiKey: key }: { apiKey: TApiKeyView }) {
  return (
    <div className="min-w-0">
      <p className="text-sm text-gray-900">
        <Code>{key.prefix}…</Code> <span className="break-words">{key.name}</span>
      </p>
      <p className="mt-0.5 text-xs text-gray-500">
        {KIND_LABELS[key.kind]} · created <DateTime value={key.createdAt} /> ·{" "}
        {key.lastUsedAt ? (
          <>
            last used <DateTime value={key.lastUsedAt} />
          </>
        ) : (
          "never used"
        )}
      </p>
      <div className="mt-1 text-xs">
        <KeyState apiKey={key} />
      </div>
    </div>
  );
}
