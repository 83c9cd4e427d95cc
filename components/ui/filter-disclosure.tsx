"use client";

/**
 * A list's filter form behind a "Filters" button on phones (below Tailwind's `sm`, 640 px), so the
 * list starts within the first screen; from `sm` up the form is always shown and the button is
 * not. The button says how many filters are on and is a disclosure (aria-expanded, aria-controls).
 * Every list's filter form is wrapped in it.
 */
import { useId, useState, type ReactNode } from "react";

import { Button } from "./button";
import { cx } from "./cx";

export function FilterDisclosure({
  active = 0,
  className,
  children,
}: {
  /** How many filters are on now ("Filters (2 on)"), or just whether any is ("Filters (on)"). */
  active?: number | boolean;
  className?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={className} data-testid="filter-disclosure">
      <Button
        size="sm"
        className="sm:hidden"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((now) => !now)}
      >
        {typeof active === "number" && active > 0 ? `Filters (${active} on)` : active ? "Filters (on)" : "Filters"}
      </Button>
      <div id={id} className={cx(open ? "mt-3 block" : "hidden", "sm:mt-0 sm:block")}>
        {children}
      </div>
    </div>
  );
}
