"use client";

/**
 * Upload an export (POST /api/admin/imports, the session cookie authenticates): the owner picks
 * what the file is (every source of the registry, tRPC imports.sources), the options that source
 * takes (import-options.tsx) and the file; its bytes are the request's body, sent with XMLHttpRequest for the upload's progress. The server stores
 * it and queues its dry run; `onUploaded` gets the upload's id.
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";

import { formatBytes } from "@/components/content/media/media-browser";
import { useTRPC } from "@/components/trpc/react";
import { Button, FormActions, FormField, LoadState, Select, useTimeZone } from "@/components/ui";

import { ImportOptionFields, NO_OPTIONS, optionsQuery, type ImportOptionValues } from "./import-options";

type Sending = { state: "idle" } | { state: "sending"; percent: number | null } | { state: "error"; message: string };

/** The server's refusal, with its problems by field (`{ field, issue }`). */
class UploadRefused extends Error {
  constructor(
    message: string,
    readonly fields: ReadonlyMap<string, string>,
  ) {
    super(message);
  }
}

type ErrorBody = { error?: { message?: string; details?: { field?: string; issue?: string }[] } } | null;

function send(
  file: File,
  options: URLSearchParams,
  onProgress: (percent: number | null) => void,
): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const query = new URLSearchParams(options);
    query.set("name", file.name);
    request.open("POST", `/api/admin/imports?${query.toString()}`);
    request.responseType = "json";
    request.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    request.upload.onprogress = (event) =>
      onProgress(event.lengthComputable ? Math.round((event.loaded / event.total) * 100) : null);
    request.onerror = () => reject(new Error("The upload failed: the server could not be reached."));
    request.onload = () => {
      const json = request.response as ({ id?: string } & ErrorBody) | null;
      if (request.status === 201 && json?.id) return resolve({ id: json.id });
      const fields = new Map<string, string>();
      // A query parameter the route refused is named "query.<name>"; an option the source does not take, "<name>".
      for (const d of json?.error?.details ?? [])
        if (d.field && d.issue) fields.set(d.field.replace(/^query\./, ""), d.issue);
      reject(new UploadRefused(json?.error?.message ?? `The upload failed (HTTP ${request.status}).`, fields));
    };
    request.send(file);
  });
}

export function ImportUploadForm({
  maxBytes,
  disabled,
  onUploaded,
}: {
  maxBytes: number;
  /** An operation is under way: one at a time. */
  disabled: boolean;
  onUploaded: (uploadId: string) => void;
}) {
  const trpc = useTRPC();
  const sources = useQuery(trpc.imports.sources.queryOptions());
  const [source, setSource] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [options, setOptions] = useState<ImportOptionValues>(NO_OPTIONS);
  const [optionErrors, setOptionErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const zone = useTimeZone() ?? "UTC";
  const [sending, setSending] = useState<Sending>({ state: "idle" });
  const [problems, setProblems] = useState<{ source?: string; file?: string }>({});
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);
  const busy = sending.state === "sending";
  const chosen = sources.data?.find((s) => s.name === source);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      source: source ? undefined : "Choose what the file is.",
      file: !file
        ? "Choose the export file."
        : file.size > maxBytes
          ? `“${file.name}” is ${formatBytes(file.size)}: files may be at most ${formatBytes(maxBytes)}.`
          : undefined,
    };
    setProblems(found);
    if (found.source || found.file || !file) return;
    setSending({ state: "sending", percent: 0 });
    setOptionErrors(new Map());
    const query = optionsQuery(options, chosen?.options ?? [], zone);
    query.set("source", source);
    try {
      const { id } = await send(file, query, (percent) => setSending({ state: "sending", percent }));
      setSending({ state: "idle" });
      setFile(null);
      setOptions(NO_OPTIONS);
      if (input.current) input.current.value = "";
      onUploaded(id);
    } catch (error) {
      if (error instanceof UploadRefused) setOptionErrors(error.fields);
      setSending({ state: "error", message: (error as Error).message });
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4" aria-label="Upload an export">
      <LoadState query={sources} what="sources" />
      <FormField
        label="What the file is"
        error={problems.source}
        hint={chosen ? `${chosen.description}. Lands as: ${chosen.kinds.join(", ")}.` : "The system that exported it."}
      >
        <Select
          value={source}
          onChange={(event) => setSource(event.target.value)}
          placeholder="Choose a source…"
          options={(sources.data ?? [])
            .filter((s) => !s.commandLineOnly)
            .map((s) => ({ value: s.name, label: `${s.name}: ${s.description}` }))}
        />
      </FormField>
      {sources.data?.some((s) => s.commandLineOnly) ? (
        <div className="text-sm text-gray-700">
          <p>Not uploaded here: whoever runs this Masthead imports these on the server.</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {sources.data
              .filter((s) => s.commandLineOnly)
              .map((s) => (
                <li key={s.name}>
                  <strong>{s.name}</strong> ({s.description}): {s.commandLineOnly}.
                </li>
              ))}
          </ul>
        </div>
      ) : null}
      <FormField
        label="Export file"
        id={fileId}
        error={problems.file}
        hint={`The file as the old system exported it (unpack a .zip first); at most ${formatBytes(maxBytes)}.`}
      >
        <input
          ref={input}
          id={fileId}
          type="file"
          aria-describedby={`${fileId}-message`}
          aria-invalid={problems.file ? true : undefined}
          className="block w-full text-sm text-gray-700 file:mr-3 file:rounded-md file:border file:border-gray-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-gray-700 hover:file:bg-gray-50"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          data-testid="import-file"
        />
      </FormField>
      {chosen ? (
        <ImportOptionFields takes={chosen.options} values={options} onChange={setOptions} errors={optionErrors} />
      ) : null}
      <FormActions>
        <Button
          type="submit"
          variant="primary"
          disabled={disabled}
          loading={busy}
          loadingText={
            sending.state === "sending" && sending.percent !== null ? `Uploading… ${sending.percent}%` : "Uploading…"
          }
        >
          Upload and check
        </Button>
      </FormActions>
      <p className="text-xs text-gray-600">
        {disabled
          ? "An import is under way: upload the next file once it has finished."
          : "The file is checked first by a dry run, which changes nothing: you import it after reading its report."}
      </p>
      {sending.state === "error" ? (
        <p role="alert" className="text-sm text-red-700" data-testid="import-upload-error">
          {sending.message}
        </p>
      ) : null}
    </form>
  );
}
