/**
 * The end of a form that adds or changes one thing: the submit's problems, then its button (busy
 * while it runs) and Cancel.
 *
 *   <FormEnd errors={errors} label="Create key" pending={create.isPending} pendingText="Creating…" onCancel={onCancel} />
 */
import type { ReactNode } from "react";

import { ErrorAlert } from "./alert";
import { Button } from "./button";
import { FormActions } from "./form-field";
import type { ServerErrors } from "./server-errors";

export function FormEnd({
  errors,
  label,
  pending,
  pendingText,
  onCancel,
}: {
  errors: ServerErrors<string>;
  label: ReactNode;
  pending: boolean;
  /** Shown on the button while `pending` ("Saving…"). */
  pendingText: string;
  onCancel: () => void;
}) {
  return (
    <>
      <ErrorAlert errors={errors} />
      <FormActions>
        <Button type="submit" variant="primary" loading={pending} loadingText={pendingText}>
          {label}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </FormActions>
    </>
  );
}
