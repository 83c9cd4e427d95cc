/**
 * Buttons, and links that look like them. Variants: `primary` (the one main action of a form or
 * page), `secondary` (everything else), `danger` (deletes and other moves that lose data), `ghost`
 * (a bare icon, e.g. the × on a chip). Sizes:
 * `md` (forms, toolbars), `sm` (inside dense rows and cards), `xs` (icon-sized arrows in lists).
 * `loading` disables the button, marks it busy and shows `loadingText` (e.g. "Saving…").
 */
import type { ComponentProps, ReactNode } from "react";

import { cx } from "./cx";
import { PageLink } from "./page-link";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
export type ButtonSize = "xs" | "sm" | "md" | "lg";

const BASE =
  "inline-flex items-center justify-center gap-1.5 rounded-md whitespace-nowrap focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60 aria-busy:cursor-wait";
const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:ring-brand-600",
  secondary:
    "border border-gray-300 bg-white font-medium text-gray-700 shadow-sm hover:bg-gray-50 focus-visible:ring-brand-600",
  danger:
    "border border-red-300 bg-white font-medium text-red-700 shadow-sm hover:bg-red-50 focus-visible:ring-red-600",
  // Gray 600: 4.5:1 on the gray and tinted backgrounds a ghost button sits on (chips, selected rows).
  ghost: "font-medium text-gray-600 hover:text-gray-900 focus-visible:ring-brand-600",
};
/** Every size is a target of at least 24 px (WCAG 2.5.8), and 44 px where the pointer is a finger. */
const TARGET = "min-h-6 min-w-6 pointer-coarse:min-h-11 pointer-coarse:min-w-11";
const SIZES: Record<ButtonSize, string> = {
  xs: `px-1.5 py-0.5 text-xs ${TARGET}`,
  sm: `px-2 py-1 text-xs ${TARGET}`,
  md: `px-3 py-1.5 text-sm ${TARGET}`,
  lg: `px-3 py-2 text-sm ${TARGET}`,
};

/** The classes of a button, for the rare element that must look like one (a file input's label). */
export function buttonClasses({
  variant = "secondary",
  size = "md",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cx(BASE, VARIANTS[variant], SIZES[size], className);
}

export type ButtonProps = Omit<ComponentProps<"button">, "type"> & {
  /** Defaults to "button": a submit button says so. */
  type?: "button" | "submit" | "reset";
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
  /** Shown instead of the children while `loading`. */
  loadingText?: ReactNode;
};

export function Button({
  type = "button",
  variant,
  size,
  loading = false,
  loadingText,
  disabled,
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClasses({ variant, size, className })}
      {...props}
    >
      {loading ? <Spinner /> : null}
      {loading && loadingText !== undefined ? loadingText : children}
    </button>
  );
}

/** A link styled as a button (navigation that is the page's main action, e.g. "New story"). */
export function ButtonLink({
  variant,
  size,
  className,
  ...props
}: ComponentProps<typeof PageLink> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <PageLink className={buttonClasses({ variant, size, className })} {...props} />;
}

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="size-3 shrink-0 animate-spin rounded-full border-2 border-current border-r-transparent"
    />
  );
}
