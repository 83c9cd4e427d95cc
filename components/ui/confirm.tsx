"use client";

/**
 * Asking before a move that loses data, in an accessible dialog instead of window.confirm:
 *
 *   const confirm = useConfirm();
 *   if (await confirm({ title: `Delete the tag "${tag.name}"?`, confirmLabel: "Delete" })) remove.mutate({ id });
 *
 * One ConfirmProvider (in the dashboard layout) serves every screen. The dismiss button ("Cancel",
 * or what is kept: `dismissLabel`) has the focus first, so Enter on a stray key press keeps the data.
 */
import { createContext, use, useCallback, useRef, useState, type ReactNode } from "react";

import { Button } from "./button";
import { Dialog } from "./dialog";
import { FormActions } from "./form-field";

export type ConfirmOptions = {
  title: string;
  body?: ReactNode;
  /** The button that goes ahead: "Delete", "Rotate secret". */
  confirmLabel: string;
  /**
   * The button that changes nothing ("Cancel" by default). A move that is itself a cancel ("Cancel
   * subscription") names what is kept instead ("Keep subscription"): never "Cancel" beside "Cancel …".
   */
  dismissLabel?: string;
  /** danger (default) for deletes, primary for moves that only replace something. */
  tone?: "danger" | "primary";
  /** "lg" for a body that shows something to look at first (the newsletter mail's preview). */
  size?: "sm" | "lg";
};

/** The dismiss button's words: `dismissLabel`, else "Cancel", or "Go back" beside a move named "Cancel …". */
export function dismissLabelOf(options: Pick<ConfirmOptions, "confirmLabel" | "dismissLabel">): string {
  if (options.dismissLabel) return options.dismissLabel;
  return /^\s*cancel\b/i.test(options.confirmLabel) ? "Go back" : "Cancel";
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

export function useConfirm(): Confirm {
  const confirm = use(ConfirmContext);
  if (!confirm) throw new Error("useConfirm() needs a <ConfirmProvider> above it (the dashboard layout has one).");
  return confirm;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setRequest(options);
      }),
    [],
  );
  const settle = useCallback((ok: boolean) => {
    const resolve = resolver.current;
    resolver.current = null;
    resolve?.(ok);
    setRequest(null);
  }, []);

  return (
    <ConfirmContext value={confirm}>
      {children}
      <ConfirmDialog
        open={request !== null}
        options={request}
        onConfirm={() => settle(true)}
        onCancel={() => settle(false)}
      />
    </ConfirmContext>
  );
}

/** The dialog itself, for a screen that wants to own the state. */
export function ConfirmDialog({
  open,
  options,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  options: ConfirmOptions | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={options?.title ?? ""} size={options?.size ?? "sm"}>
      {options?.body ? <div className="mb-4 text-sm text-gray-700">{options.body}</div> : null}
      <FormActions>
        <Button variant={options?.tone === "primary" ? "primary" : "danger"} onClick={onConfirm}>
          {options?.confirmLabel}
        </Button>
        <Button onClick={onCancel} data-autofocus>
          {options ? dismissLabelOf(options) : "Cancel"}
        </Button>
      </FormActions>
    </Dialog>
  );
}
