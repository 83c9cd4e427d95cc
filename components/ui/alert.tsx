/**
 * A message box: `error` (role=alert), `success` and `info` (role=status), `warning`. ErrorAlert
 * shows a failed call: its sentence and the `{ field, issue }` problems no field of the form shows.
 */
import type { ReactNode } from "react";

import { cx } from "./cx";
import { ErrorReference } from "./load-state";
import { serverErrors, type ServerErrors } from "./server-errors";

export type AlertTone = "error" | "warning" | "success" | "info";

const TONES: Record<AlertTone, string> = {
  error: "border-red-200 bg-red-50 text-red-800",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  success: "border-green-200 bg-green-50 text-green-800",
  info: "border-blue-200 bg-blue-50 text-blue-900",
};

export function Alert({
  tone,
  role,
  className,
  children,
  ...props
}: {
  tone: AlertTone;
  /** Defaults to alert for errors and warnings, status otherwise. */
  role?: "alert" | "status" | "note";
  className?: string;
  children: ReactNode;
  id?: string;
  "data-testid"?: string;
}) {
  return (
    <div
      role={role ?? (tone === "error" || tone === "warning" ? "alert" : "status")}
      className={cx("rounded-md border px-3 py-2 text-sm", TONES[tone], className)}
      {...props}
    >
      {children}
    </div>
  );
}

/**
 * A failed call, or nothing. Pass `error` (every detail is listed) or, in a form, the form's
 * `errors` from serverErrors(error, fields) (details shown next to their fields are left out).
 */
export function ErrorAlert({
  error,
  errors,
  className,
}: {
  error?: unknown;
  errors?: ServerErrors<string>;
  className?: string;
}) {
  const { message, fields, others } = errors ?? serverErrors(error);
  if (message === null) return null;
  const shownByFields = Object.keys(fields).length > 0;
  // The server's generic sentence for bad input says nothing the fields below do not.
  const sentence =
    message === "The input is not valid."
      ? shownByFields && !others.length
        ? "Please correct the highlighted fields."
        : "Please correct the following:"
      : message;
  return (
    <Alert tone="error" className={className}>
      <p>{sentence}</p>
      <ErrorReference error={error} />
      {others.length ? (
        <ul className="mt-1 list-disc ps-5">
          {others.map((d) => (
            <li key={`${d.field}:${d.issue}`}>
              <span className="font-medium">{d.field}</span>: {d.issue}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
