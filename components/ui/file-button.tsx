"use client";

/**
 * A button-looking label over a hidden file input (keyboard: Tab to it, Enter or Space opens the
 * picker; the input keeps the focus ring visible on the label). Picking a file hands it to
 * `onFile`; the input is emptied so the same file can be picked again. While `busy`, it says
 * "Uploading…" and is disabled.
 */
import { buttonClasses } from "./button";

export function FileButton({
  id,
  labelId,
  label,
  accept,
  size = "sm",
  busy,
  describedBy,
  onFile,
}: {
  /** The input's id. */
  id: string;
  /** The label's id, for what it names. */
  labelId?: string;
  label: string;
  accept: string;
  size?: "sm" | "md";
  busy: boolean;
  describedBy?: string;
  onFile: (file: File) => void;
}) {
  return (
    <label
      id={labelId}
      htmlFor={id}
      className={buttonClasses({
        size,
        className: "cursor-pointer has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600",
      })}
    >
      {busy ? "Uploading…" : label}
      <input
        id={id}
        type="file"
        accept={accept}
        className="sr-only"
        disabled={busy}
        aria-describedby={describedBy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
    </label>
  );
}
