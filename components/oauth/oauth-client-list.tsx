"use client";

/**
 * The account's OAuth clients: register one (its secret shown once), edit its name and redirect
 * URIs, rotate its secret (shown once; the old one stops at once), revoke it for good.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Badge,
  Button,
  Code,
  DateTime,
  ErrorAlert,
  ListPanel,
  serverErrors,
  ShownOnce,
  useAddForm,
  useConfirm,
} from "@/components/ui";

import { OAuthClientForm } from "./oauth-client-form";

type Secret = { clientId: string; clientSecret: string; rotated: boolean };

type Client = RouterOutputs["oauthClients"]["list"][number];

export function OAuthClientList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery(trpc.oauthClients.list.queryOptions());
  const adding = useAddForm();
  const [editing, setEditing] = useState<string | null>(null);
  const [secret, setSecret] = useState<Secret | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.oauthClients.list.queryKey() });

  const create = useMutation(
    trpc.oauthClients.create.mutationOptions({
      onSuccess: async (result) => {
        adding.close();
        setSecret({ clientId: result.client.clientId, clientSecret: result.clientSecret, rotated: false });
        await refresh();
      },
    }),
  );
  const update = useMutation(
    trpc.oauthClients.update.mutationOptions({
      onSuccess: async () => {
        setEditing(null);
        await refresh();
      },
    }),
  );
  const rotate = useMutation(trpc.oauthClients.rotateSecret.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.oauthClients.revoke.mutationOptions({ onSuccess: refresh }));

  async function onRotate(client: Client) {
    const ok = await confirm({
      title: `Rotate the secret of ${client.name}?`,
      body: "The current secret stops working at once; the application needs the new one.",
      confirmLabel: "Rotate secret",
      tone: "primary",
    });
    if (!ok) return;
    const result = await rotate.mutateAsync({ id: client.id });
    setSecret({ clientId: client.clientId, clientSecret: result.clientSecret, rotated: true });
  }

  async function onRevoke(client: Client) {
    const ok = await confirm({
      title: `Revoke ${client.name}?`,
      body: "Readers can no longer sign in to it, and every access token it holds stops working. This cannot be undone.",
      confirmLabel: "Revoke",
    });
    if (ok) await revoke.mutateAsync({ id: client.id });
  }

  return (
    <div className="space-y-6">
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <ErrorAlert errors={serverErrors(rotate.error ?? revoke.error)} />

      <ListPanel
        title="Clients"
        titleId="oauth-clients-title"
        add={{
          label: "Register client",
          formTitle: "New client",
          ...adding.panel,
          form: <OAuthClientForm submitLabel="Register client" {...adding.formProps(create)} />,
        }}
        query={list}
        what="OAuth clients"
        emptyText="No OAuth clients yet. Register one for each application that signs readers in through Masthead."
      >
        {(clients) => (
          <ul className="divide-y divide-gray-100">
            {clients.map((client) => (
              <li key={client.id} className="space-y-2 px-4 py-3" data-testid="oauth-client">
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                  <ClientDetails client={client} />
                  <div className="flex shrink-0 flex-wrap items-center gap-2">
                    {client.revokedAt ? <Badge tone="red">Revoked</Badge> : <Badge tone="green">Active</Badge>}
                    {!client.revokedAt ? (
                      <>
                        <Button size="sm" onClick={() => setEditing(editing === client.id ? null : client.id)}>
                          Edit
                        </Button>
                        <Button
                          size="sm"
                          loading={rotate.isPending && rotate.variables?.id === client.id}
                          onClick={() => void onRotate(client).catch(() => undefined)}
                        >
                          Rotate secret
                        </Button>
                        <Button size="sm" variant="danger" onClick={() => void onRevoke(client).catch(() => undefined)}>
                          Revoke
                        </Button>
                      </>
                    ) : null}
                  </div>
                </div>
                {editing === client.id ? (
                  <OAuthClientForm
                    initial={client}
                    submitLabel="Save"
                    pending={update.isPending}
                    error={update.error}
                    onSubmit={(values) => update.mutate({ id: client.id, ...values })}
                    onCancel={() => {
                      update.reset();
                      setEditing(null);
                    }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </ListPanel>
    </div>
  );
}

/** A new or rotated client secret, shown this once. */
function SecretOnce({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  return (
    <ShownOnce
      title="Copy the client secret now: it will not be shown again."
      value={secret.clientSecret}
      onDone={onDone}
      testId="secret-once"
      valueTestId="secret-value"
    >
      {secret.rotated ? "The previous secret no longer works. " : ""}The application sends it with its client id{" "}
      <code className="font-mono text-xs">{secret.clientId}</code> to POST /oauth/token. See docs/engagement.md,
      &quot;OAuth 2.0&quot;.
    </ShownOnce>
  );
}

/** A client's name, id, redirect URIs and dates. */
function ClientDetails({ client }: { client: Client }) {
  return (
    <div className="min-w-0">
      <p className="font-medium text-gray-900">{client.name}</p>
      <p className="mt-0.5 text-xs break-all text-gray-600">
        Client id <Code>{client.clientId}</Code>
      </p>
      <ul className="mt-1 space-y-0.5 text-xs text-gray-600" aria-label={`Redirect URIs of ${client.name}`}>
        {client.redirectUris.map((uri) => (
          <li key={uri} className="font-mono break-all">
            {uri}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-gray-500">
        Registered <DateTime value={client.createdAt} />
        {client.secretRotatedAt ? (
          <>
            {" "}
            · secret rotated <DateTime value={client.secretRotatedAt} />
          </>
        ) : null}
      </p>
    </div>
  );
}
