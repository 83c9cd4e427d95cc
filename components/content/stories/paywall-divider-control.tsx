"use client";

/**
 * The paywall divider among a closed story's cards: "Free above / paid below", as Ghost's paywall
 * card shows it. A labelled separator the keyboard moves (↑/↓ one element, Home: nothing free,
 * End: all free, Delete: the account's default) with buttons that do the same. Where it is drawn
 * and where it goes when the cards change: ./paywall-divider.ts.
 */
import { useEffect, useRef, type KeyboardEvent, type MutableRefObject } from "react";

import { Button } from "@/components/ui";
import type { TCard } from "@/server/publishing/cards.schema";

import { dividerText, effectivePoint, elementCount } from "./paywall-divider";

export type PaywallProps = {
  /** The elements free above the divider, as drawn (the story's own point, or the default's). */
  point: number;
  total: number;
  /** Whether the story sets its own point (false: the account's default). */
  own: boolean;
  accountDefault: number;
  /** A new point for the story, or null: use the account's default. */
  onChange: (at: number | null) => void;
};

/** The divider of a story as the form holds it: none for a public story. */
export function paywallProps(
  story: { access: string; cards: TCard[]; paywallAt: number | null },
  accountDefault: number,
  onChange: (at: number | null) => void,
): PaywallProps | null {
  if (story.access === "public") return null;
  return {
    point: effectivePoint(story.cards, story.paywallAt, accountDefault),
    total: elementCount(story.cards),
    own: story.paywallAt !== null,
    accountDefault,
    onChange,
  };
}

/** What should take focus once the divider is drawn in its new place (it moves in the page). */
export type DividerFocus = MutableRefObject<"separator" | "up" | "down" | "default" | null>;

export function PaywallDivider({ paywall, focusRef }: { paywall: PaywallProps; focusRef: DividerFocus }) {
  const { point, total, own, accountDefault, onChange } = paywall;
  const { label, detail } = dividerText(point, total, own, accountDefault);
  const separatorRef = useRef<HTMLDivElement>(null);
  const upRef = useRef<HTMLButtonElement>(null);
  const downRef = useRef<HTMLButtonElement>(null);
  const defaultRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const want = focusRef.current;
    if (!want) return;
    focusRef.current = null;
    const button =
      want === "up"
        ? upRef.current
        : want === "down"
          ? downRef.current
          : want === "default"
            ? defaultRef.current
            : null;
    // A button that is now disabled (the divider reached an end) hands focus to the separator.
    (button && !button.disabled ? button : separatorRef.current)?.focus();
  });
  const moveTo = (next: number, from: "separator" | "up" | "down") => {
    const clamped = Math.min(Math.max(0, next), total);
    if (clamped === point && own) return;
    focusRef.current = from;
    onChange(clamped);
  };
  const toDefault = (from: "separator" | "default") => {
    focusRef.current = from === "default" ? "separator" : from;
    onChange(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const key = event.key;
    if (key === "ArrowUp") moveTo(point - 1, "separator");
    else if (key === "ArrowDown") moveTo(point + 1, "separator");
    else if (key === "Home") moveTo(0, "separator");
    else if (key === "End") moveTo(total, "separator");
    else if (key === "Delete" || key === "Backspace") toDefault("separator");
    else return;
    event.preventDefault();
  };
  return (
    <div className="my-3 space-y-1.5" data-testid="paywall-divider" data-point={point} data-own={own}>
      <div
        ref={separatorRef}
        role="separator"
        tabIndex={0}
        aria-orientation="horizontal"
        aria-label="Paywall divider: free above, paid below"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={point}
        aria-valuetext={`${label}. ${detail}`}
        onKeyDown={onKeyDown}
        className="flex items-center gap-2 rounded text-xs font-semibold text-amber-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700"
      >
        <span aria-hidden="true" className="h-0 flex-1 border-t-2 border-dashed border-amber-600" />
        <span className="text-center">
          {label}
          <span className="block font-normal text-amber-800">{detail}</span>
        </span>
        <span aria-hidden="true" className="h-0 flex-1 border-t-2 border-dashed border-amber-600" />
      </div>
      <div role="group" aria-label="Paywall divider" className="flex flex-wrap justify-center gap-1">
        <Button ref={upRef} size="sm" disabled={point === 0} onClick={() => moveTo(point - 1, "up")}>
          Move divider up
        </Button>
        <Button ref={downRef} size="sm" disabled={point >= total} onClick={() => moveTo(point + 1, "down")}>
          Move divider down
        </Button>
        {own ? (
          <Button ref={defaultRef} size="sm" onClick={() => toDefault("default")}>
            Use account default ({accountDefault})
          </Button>
        ) : null}
      </div>
    </div>
  );
}
