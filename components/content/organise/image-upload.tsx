"use client";
/** Upload an image (POST /api/admin/images) and keep its key; shows the current one. */
import { useState } from "react";

import type { TUploadedImage } from "@/server/publishing/editorial/organise.schema";

import { buttonClass } from "./ui";

export function ImageUpload({ id, value, onChange }: { id: string; value: string; onChange: (key: string) => void }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function upload(file: File) {
    setState({ busy: true, error: null });
    const form = new FormData();
    form.append("file", file);
    try {
      const response = await fetch("/api/admin/images", { method: "POST", body: form });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        setState({ busy: false, error: body?.error?.message ?? `Upload failed (HTTP ${response.status}).` });
        return;
      }
      const image = (await response.json()) as TUploadedImage;
      onChange(image.key);
      setState({ busy: false, error: null });
    } catch {
      setState({ busy: false, error: "Upload failed: the server could not be reached." });
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex items-center gap-3">
        {value ? (
          // eslint-disable-next-line @next/next/no-img-element -- an uploaded file, served by /images
          <img src={`/images/${value}`} alt="" className="h-10 w-10 rounded object-cover ring-1 ring-gray-200" />
        ) : null}
        <input
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          disabled={state.busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
          }}
          className="block w-full text-sm text-gray-700 file:mr-3 file:rounded-md file:border file:border-gray-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
        />
        {value ? (
          <button type="button" className={buttonClass} onClick={() => onChange("")}>
            Remove
          </button>
        ) : null}
      </div>
      {state.busy ? <p className="text-xs text-gray-500">Uploading…</p> : null}
      {state.error ? (
        <p role="alert" className="text-xs text-red-700">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
