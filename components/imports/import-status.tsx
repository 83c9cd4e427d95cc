"use client";

/**
 * The uploaded file and its operation (tRPC imports.upload, polled each second while queued or
 * running): the progress bar, then the dry run's report with the Import button (its counts), the
 * import's progress and report, Cancel while under way, Resume after an interruption.
 */
import { useMutation } from "@tanstack/react-query";

import { formatBytes } from "@/components/content/media/media-browser";
import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  Code,
  DateTime,
  ErrorAlert,
  FormActions,
  Panel,
  useDateTimeFormat,
  type BadgeTone,
} from "@/components/ui";
import type { TImportState, TImportUploadView } from "@/server/imports/dashboard/dashboard.schema";

import { optionsInWords } from "./import-options";
import { createdSummary, formatCount, ImportReport } from "./import-report";
import { PlanMappingForm } from "./plan-mapping-form";

const STATE_LABEL: Record<TImportState, string> = {
  queued: "Queued",
  running: "Running",
  completed: "Completed",
  interrupted: "Interrupted",
  failed: "Failed",
};
const STATE_TONE: Record<TImportState, BadgeTone> = {
  queued: "gray",
  running: "blue",
  completed: "green",
  interrupted: "amber",
  failed: "red",
};

export const isUnderWay = (upload: TImportUploadView | null | undefined) =>
  upload?.state === "queued" || upload?.state === "running";

/** Items done of the total, as a bar (role=progressbar) and in words. */
function ImportProgress({ upload }: { upload: TImportUploadView }) {
  const { done, total } = upload.progress;
  const what = upload.operation === "dry-run" ? "Dry run" : "Import";
  const words =
    upload.state === "queued"
      ? `${what} queued: it starts when a worker is free.`
      : total === 0
        ? `${what}: reading the file…`
        : `${what}: ${formatCount(done)} of ${formatCount(total)} items`;
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={`${what} progress`}
        aria-valuemin={0}
        aria-valuemax={Math.max(total, 1)}
        aria-valuenow={done}
        aria-valuetext={words}
        className="h-3 w-full overflow-hidden rounded-full bg-gray-200"
        data-testid="import-progress"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-gray-700" aria-live="polite">
        {words}
        {upload.cancelRequested ? " Stopping after the batch in flight…" : null}
      </p>
    </div>
  );
}

export function ImportStatus({ upload, onChanged }: { upload: TImportUploadView; onChanged: () => Promise<void> }) {
  const trpc = useTRPC();
  const start = useMutation(trpc.imports.start.mutationOptions({ onSuccess: onChanged }));
  const cancel = useMutation(trpc.imports.cancel.mutationOptions({ onSuccess: onChanged }));
  const underWay = isUnderWay(upload);
  const dry = upload.dryReport;
  const run = upload.run;
  const isImport = upload.operation === "import";
  const confirm = () => start.mutate({ uploadId: upload.id, digest: upload.fileDigest });
  const format = useDateTimeFormat();

  return (
    <Panel
      title={`${upload.fileName} (${upload.source})`}
      padded
      data-testid="import-upload"
      actions={
        <span data-testid="import-state">
          <Badge tone={STATE_TONE[upload.state]}>
            {isImport ? "Import" : "Dry run"}: {STATE_LABEL[upload.state]}
          </Badge>
        </span>
      }
    >
      <p className="text-xs text-gray-600">
        {formatBytes(upload.bytes)} · SHA-256 <Code className="break-all">{upload.fileDigest}</Code> · uploaded{" "}
        <DateTime value={upload.createdAt} />
        {upload.uploadedBy ? ` by ${upload.uploadedBy}` : null}
      </p>
      <p className="text-xs text-gray-600" data-testid="import-options-used">
        Options: {optionsInWords(upload.options, format)}
      </p>

      {underWay ? (
        <>
          <ImportProgress upload={upload} />
          <FormActions>
            <Button
              variant="danger"
              onClick={() => cancel.mutate({ uploadId: upload.id })}
              loading={cancel.isPending}
              disabled={upload.cancelRequested}
            >
              Cancel
            </Button>
          </FormActions>
        </>
      ) : null}
      <ErrorAlert error={start.error ?? cancel.error} />

      {upload.state === "failed" && upload.error ? (
        <Alert tone="error" data-testid="import-error">
          {isImport ? "The import" : "The dry run"} failed: {upload.error}
        </Alert>
      ) : null}

      {upload.state === "interrupted" ? (
        isImport ? (
          <Alert tone="warning" data-testid="import-interrupted">
            <p>
              The import was interrupted
              {run ? ` after ${formatCount(run.progress.done)} of ${formatCount(run.progress.total)} items` : ""}. What
              it did stays; Resume runs the same file again: what is done is skipped, the rest is imported.
            </p>
            <FormActions>
              <Button variant="primary" size="sm" className="mt-2" onClick={confirm} loading={start.isPending}>
                Resume
              </Button>
            </FormActions>
          </Alert>
        ) : (
          <Alert tone="warning">The dry run was stopped before the end: upload the file again to check it.</Alert>
        )
      ) : null}

      {isImport && run?.report && !underWay ? <ImportReport report={run.report} title="What the import did" /> : null}

      {dry ? (
        <>
          {!isImport && !underWay && dry.status === "completed" ? (
            <div className="border-brand-200 space-y-2 rounded-md border bg-brand-50 p-3">
              <p className="text-sm text-gray-800">
                The dry run changed nothing. Read its report below; importing does what it says, and can be run again.
              </p>
              <Button variant="primary" onClick={confirm} loading={start.isPending} data-testid="import-confirm">
                Import: create {createdSummary(dry)}
              </Button>
            </div>
          ) : null}
          {!underWay && dry.oldPlans.length > 0 ? (
            <PlanMappingForm
              key={`${upload.id}:${dry.digest}:${JSON.stringify(upload.options.plans ?? [])}`}
              upload={upload}
              oldPlans={dry.oldPlans}
              onChanged={onChanged}
            />
          ) : null}
          <ImportReport report={dry} title={isImport ? "The dry run said" : "What the import would do"} />
        </>
      ) : null}
    </Panel>
  );
}
