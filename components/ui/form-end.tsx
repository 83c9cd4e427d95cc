/**
 * The end of a form that adds or changes one thing: the submit's problems, then its button (busy
 * while it runs) and Cancel. `SubmitActions` is the buttons alone, for a form whose problems are
 * shown elsewhere.
 *
 *   <FormEnd errors={errors} label="Create key" pending={create.isPending} pendingText="Creating…" onCancel={onCancel} />
 */
import type { ReactNode } from "react";

import { ErrorAlert } from "./alert";
import { Button, type ButtonVariant } from "./button";
import { FormActions } from "./form-field";
import type { ServerErrors } from "./server-errors";

type SubmitActionsProps = {
  label: ReactNode;
  pending: boolean;
  /** Shown on the button while `pending` ("Saving…"). */
  pendingText: string;
  /** None: no Cancel button. */
  onCancel?: () => void;
  /** The submit button's look: "primary" unless the action is destructive ("danger"). */
  variant?: ButtonVariant;
};

export function SubmitActions({ label, pending, pendingText, onCancel, variant = "primary" }: SubmitActionsProps) {
  return (
    <FormActions>
      <Button type="submit" variant={variant} loading={pending} loadingText={pendingText}>
        {label}
      </Button>
      {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
    </FormActions>
  );
}

export function FormEnd({ errors, ...actions }: SubmitActionsProps & { errors: ServerErrors<string> }) {
  return (
    <>
      <ErrorAlert errors={errors} />
      <SubmitActions {...actions} />
    </>
  );
}
