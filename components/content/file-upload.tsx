"use client";

/**
 * Document uploads for a story's file element (POST /api/admin/files, the session cookie
 * authenticates): a button that opens the file picker, sends the file with its progress in words,
 * and hands back the stored file (its link, name, type and size). The server judges what the file
 * is from its bytes; the picker's filter and the label only say what it will accept.
 *
 * The size limit is the server's (FILE_UPLOAD_MAX_BYTES): pages put it in FileUploadLimit so the
 * label says it; a file over it is refused here before sending, and by the server anyway.
 */
import { createContext, use, useId, useState, type ReactNode } from "react";

import { formatBytes } from "@/components/content/media/media-browser";
import { FileButton } from "@/components/ui";
import { ACCEPTED_FILES_LABEL, FILE_ACCEPT, type TUploadedFile } from "@/server/publishing/editorial/files.schema";

/** The env.js default, for a page that does not say. */
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

const LimitContext = createContext(DEFAULT_MAX_BYTES);

/** Gives the upload buttons below the server's limit (FILE_UPLOAD_MAX_BYTES). */
export function FileUploadLimit({ maxBytes, children }: { maxBytes: number; children: ReactNode }) {
  return <LimitContext value={maxBytes}>{children}</LimitContext>;
}

type Progress = { state: "idle" } | { state: "sending"; percent: number | null } | { state: "error"; message: string };

/**
 * Send one file. XMLHttpRequest rather than fetch: only it reports upload progress.
 * Resolves with the stored file, or rejects with a message in words.
 */
function send(file: File, onProgress: (percent: number | null) => void): Promise<TUploadedFile> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/admin/files");
    request.responseType = "json";
    request.upload.onprogress = (event) =>
      onProgress(event.lengthComputable ? Math.round((event.loaded / event.total) * 100) : null);
    request.onerror = () => reject(new Error("The upload failed: the server could not be reached."));
    request.onload = () => {
      const json = request.response as (TUploadedFile & { error?: { message?: string } }) | null;
      if (request.status === 201 && json?.url) resolve(json);
      else reject(new Error(json?.error?.message ?? `The upload failed (HTTP ${request.status}).`));
    };
    const body = new FormData();
    body.append("file", file);
    request.send(body);
  });
}

/**
 * A button-looking label over a hidden file input (keyboard: Tab to it, Enter or Space opens the
 * picker): picking a file uploads it, then `onUploaded` gets it and the button shows its name and
 * size. `label` names the button; the accepted types and the limit are said beside it.
 */
export function FileUploadButton({ label, onUploaded }: { label: string; onUploaded: (file: TUploadedFile) => void }) {
  const maxBytes = use(LimitContext);
  const id = useId();
  const [progress, setProgress] = useState<Progress>({ state: "idle" });
  const [uploaded, setUploaded] = useState<TUploadedFile | null>(null);
  const busy = progress.state === "sending";

  async function upload(file: File) {
    if (file.size > maxBytes) {
      setProgress({
        state: "error",
        message: `“${file.name}” is ${formatBytes(file.size)}: files may be at most ${formatBytes(maxBytes)}.`,
      });
      return;
    }
    setUploaded(null);
    setProgress({ state: "sending", percent: 0 });
    try {
      const stored = await send(file, (percent) => setProgress({ state: "sending", percent }));
      setProgress({ state: "idle" });
      setUploaded(stored);
      onUploaded(stored);
    } catch (error) {
      setProgress({ state: "error", message: (error as Error).message });
    }
  }

  return (
    <div className="space-y-1">
      <FileButton
        id={id}
        label={label}
        accept={FILE_ACCEPT}
        busy={busy}
        describedBy={`${id}-hint`}
        onFile={(file) => void upload(file)}
      />
      <p id={`${id}-hint`} className="text-xs text-gray-600">
        {ACCEPTED_FILES_LABEL}; at most {formatBytes(maxBytes)}.
      </p>
      <p role="status" className="text-xs text-gray-700" data-testid="file-upload-status">
        {busy
          ? progress.percent === null
            ? "Uploading…"
            : `Uploading… ${progress.percent}% sent.`
          : uploaded
            ? `Uploaded “${uploaded["file-name"]}” (${formatBytes(uploaded.bytes)}).`
            : null}
      </p>
      {progress.state === "error" ? (
        <p role="alert" className="text-xs text-red-700">
          {progress.message}
        </p>
      ) : null}
    </div>
  );
}
