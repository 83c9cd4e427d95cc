"use client";
/** "Upload": sends an image to POST /api/admin/images and hands back its key and size. */
import { useId, useState } from "react";

import { buttonClass } from "@/components/webhooks/ui";

export type UploadedImage = { key: string; url: string; width: number; height: number; "mime-type": string };

export function ImageUpload({ label, onUploaded }: { label: string; onUploaded: (image: UploadedImage) => void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function upload(file: File) {
    setBusy(true);
    setError(null);
    try {
      const body = new FormData();
      body.append("file", file);
      const response = await fetch("/api/admin/images", { method: "POST", body });
      const json = (await response.json().catch(() => null)) as (UploadedImage & { error?: { message?: string } }) | null;
      if (!response.ok || !json?.key) throw new Error(json?.error?.message ?? `The upload failed (HTTP ${response.status}).`);
      onUploaded(json);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The upload failed.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className={`${buttonClass} cursor-pointer px-2 py-1 text-xs`}>
        {busy ? "Uploading…" : label}
      </label>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/gif,image/webp"
        className="sr-only"
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void upload(file);
        }}
      />
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </div>
  );
}
