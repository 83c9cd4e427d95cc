"use client";

/**
 * The account's API keys: each by its prefix (never the key), with its use and state; rotating
 * one shows the new key once and keeps the old one working for the grace period.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  Code,
  DateTime,
  ErrorAlert,
  ListPanel,
  PanelList,
  ShownOnce,
  useConfirm,
} from "@/components/ui";
import { API_KEY_ROTATION_GRACE_HOURS, type TApiKeyView, type TRotatedApiKey } from "@/server/accounts/api-keys.schema";

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

export function ApiKeysPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery(trpc.staff.apiKeys.list.queryOptions());
  const [rotated, setRotated] = useState<TRotatedApiKey | null>(null);
  const rotate = useMutation(
    trpc.staff.apiKeys.rotate.mutationOptions({
      onSuccess: async (result) => {
        setRotated(result);
        await queryClient.invalidateQueries({ queryKey: trpc.staff.apiKeys.list.queryKey() });
      },
    }),
  );

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
      emptyText="This account has no API keys. `npm run admin:create` makes the first ones."
      notices={
        <>
          {rotated ? (
            <div className="px-4 pt-3">
              {/* Keyed by the key: a second rotation shows its key with a fresh Copy button. */}
              <ShownOnce
                key={rotated.key}
                title="Copy the new key now: it will not be shown again."
                value={rotated.key}
                onDone={() => setRotated(null)}
                testId="new-key-once"
                valueTestId="new-key-value"
              >
                The old key {rotated.previous.prefix}… works until{" "}
                {rotated.previous.expiresAt ? <DateTime value={rotated.previous.expiresAt} /> : "now"}.
              </ShownOnce>
            </div>
          ) : null}
          {rotate.error ? (
            <div className="px-4 pt-3">
              <ErrorAlert error={rotate.error} />
            </div>
          ) : null}
        </>
      }
    >
      {(keys) => (
        <PanelList items={keys} itemKey={(key) => key.id} labelledBy="api-keys-title" rowTestId="api-key-row">
          {(key) => (
            <>
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
              {key.live && !key.expiresAt ? (
                <Button
                  size="sm"
                  onClick={() => void onRotate(key)}
                  loading={rotate.isPending && rotate.variables?.keyId === key.id}
                  aria-label={`Rotate key ${key.prefix}`}
                >
                  Rotate
                </Button>
              ) : null}
            </>
          )}
        </PanelList>
      )}
    </ListPanel>
  );
}
