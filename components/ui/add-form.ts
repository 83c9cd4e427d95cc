"use client";

/**
 * The "add one" form of a list (ListPanel's `add`): whether it is open, and what the form is given
 * for the create mutation. Cancel clears the mutation's error and closes it; the mutation's
 * `onSuccess` closes it with `close`.
 *
 *   const adding = useAddForm();
 *   const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: () => adding.close() }));
 *   <ListPanel add={{ label: "Add webhook", formTitle: "New webhook", ...adding.panel,
 *     form: <WebhookForm submitLabel="Add webhook" {...adding.formProps(create)} /> }} … />
 */
import { useState } from "react";

/** The part of a mutation an add form needs (useMutation's result). */
type CreateMutation<Values> = {
  isPending: boolean;
  error: unknown;
  mutate: (values: Values) => void;
  reset: () => void;
};

export function useAddForm({ onClose }: { onClose?: () => void } = {}) {
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    onClose?.();
  };
  return {
    open,
    close,
    /** ListPanel's `open` and `onOpen`. */
    panel: { open, onOpen: () => setOpen(true) },
    /** Opens the form (from elsewhere on the page). */
    show: () => setOpen(true),
    /** The form's `pending`, `error`, `onSubmit` and `onCancel` for `create`. */
    formProps<Values>(create: CreateMutation<Values>) {
      return {
        pending: create.isPending,
        error: create.error,
        onSubmit: (values: Values) => create.mutate(values),
        onCancel: () => {
          create.reset();
          close();
        },
      };
    },
  };
}
