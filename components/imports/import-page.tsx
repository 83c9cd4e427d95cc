"use client";

/**
 * The Import page: upload an export (checked by a dry run), read the report, import it, follow
 * its progress; the runs below. The file shown is the one just uploaded, else the account's
 * latest; both are polled each second while an operation is queued or running.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { LoadState, Panel } from "@/components/ui";
import type { TImportUploadView } from "@/server/imports/dashboard/dashboard.schema";

import { ImportRuns } from "./import-runs";
import { ImportStatus, isUnderWay } from "./import-status";
import { ImportUploadForm } from "./import-upload-form";

const POLL_MS = 1000;
const poll = (upload: TImportUploadView | null | undefined) => (isUnderWay(upload) ? POLL_MS : false);

export function ImportPage({ maxBytes }: { maxBytes: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [uploadId, setUploadId] = useState<string | null>(null);
  const latest = useQuery({
    ...trpc.imports.latest.queryOptions(),
    enabled: uploadId === null,
    refetchInterval: (query) => poll(query.state.data),
  });
  const chosen = useQuery({
    ...trpc.imports.upload.queryOptions({ uploadId: uploadId ?? "" }),
    enabled: uploadId !== null,
    refetchInterval: (query) => poll(query.state.data),
  });
  const current = uploadId ? chosen : latest;
  const upload = current.data ?? null;
  const underWay = isUnderWay(upload);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.imports.pathKey() });
  };
  // A run starts or ends as the file's state moves: read the runs again then.
  const moment = upload ? `${upload.id}:${upload.operation}:${upload.state}` : "";
  useEffect(() => {
    if (moment) void queryClient.invalidateQueries({ queryKey: trpc.imports.runs.queryKey() });
  }, [moment, queryClient, trpc]);

  return (
    <div className="space-y-6">
      <Panel title="Upload an export" padded>
        <ImportUploadForm
          maxBytes={maxBytes}
          disabled={underWay}
          onUploaded={(id) => {
            setUploadId(id);
            void refresh();
          }}
        />
      </Panel>
      <LoadState query={current} what="import" />
      {upload ? <ImportStatus upload={upload} onChanged={refresh} /> : null}
      <ImportRuns polling={underWay && upload?.operation === "import"} />
    </div>
  );
}
