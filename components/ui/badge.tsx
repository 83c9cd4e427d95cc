/** A small rounded label for a status or a count, and inline code (an event name, an action). */
import type { ReactNode } from "react";

import { cx } from "./cx";

export type BadgeTone = "green" | "red" | "amber" | "gray" | "blue";

const TONES: Record<BadgeTone, string> = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  gray: "bg-gray-100 text-gray-700 ring-gray-500/20",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/20",
};

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        TONES[tone],
      )}
    >
      {children}
    </span>
  );
}

/** "3 stories", "1 story". */
export function CountBadge({ count, one, many }: { count: number; one: string; many: string }) {
  return (
    <Badge tone="gray">
      {count} {count === 1 ? one : many}
    </Badge>
  );
}

/** A machine name set in code type: an event, an audit action, a key. */
export function Code({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <code className={cx("rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-800", className)}>
      {children}
    </code>
  );
}

/**
 * Preformatted text that may be wider or taller than its box (a payload, a response, a schema):
 * it scrolls inside the box, and the box takes the keyboard focus so that it can be scrolled
 * without a mouse.
 */
export function CodeBlock({ children, label, className }: { children: ReactNode; label: string; className?: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className={cx(
        "overflow-auto rounded bg-gray-50 p-2 font-mono text-[11px] text-gray-700 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none",
        className,
      )}
    >
      {children}
    </pre>
  );
}
