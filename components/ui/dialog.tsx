"use client";

/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert (the
 * focus stays inside), Escape closes it, and focus returns to what had it before. Controlled: the
 * parent owns `open` and hears `onClose` (Escape, the × button, or its own Cancel). The children are
 * mounted only while it is open, so a form inside starts afresh each time.
 *
 * Focus goes to the first element with `data-autofocus`, else the browser's choice (the first
 * focusable element).
 */
import { useEffect, useId, useRef, type ReactNode } from "react";

import { cx } from "./cx";

export function Dialog({
  open,
  onClose,
  title,
  description,
  size = "md",
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  size?: "sm" | "md" | "lg";
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape fires "cancel" and then "close"; close() fires "close" too. Either way the parent hears it once more
    // than needed at worst, which setting `open` to false again absorbs.
    const handleClose = () => {
      const target = returnFocusTo.current;
      returnFocusTo.current = null;
      if (target?.isConnected) target.focus();
      onCloseRef.current();
    };
    dialog.addEventListener("close", handleClose);
    return () => {
      dialog.removeEventListener("close", handleClose);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={cx(
        "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] overflow-y-auto overscroll-contain rounded-lg border border-gray-200 bg-white p-0 text-gray-900 shadow-xl backdrop:bg-gray-900/40",
        size === "sm" ? "max-w-md" : size === "md" ? "max-w-lg" : "max-w-2xl",
      )}
    >
      {open ? (
        <>
          <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-4 py-3">
            <div className="min-w-0">
              <h2 id={titleId} className="text-base font-semibold break-words text-gray-900">
                {title}
              </h2>
              {description ? (
                <div id={descriptionId} className="mt-1 text-sm text-gray-600">
                  {description}
                </div>
              ) : null}
            </div>
            <button
              type="button"
              aria-label="Close"
              onClick={() => onClose()}
              className="-m-1 shrink-0 rounded p-1 text-gray-500 hover:text-gray-900 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
            >
              <span aria-hidden="true">✕</span>
            </button>
          </div>
          <div className="px-4 py-4">{children}</div>
        </>
      ) : null}
    </dialog>
  );
}
