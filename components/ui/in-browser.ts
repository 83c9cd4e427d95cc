"use client";

/**
 * Whether this render is in the browser after hydration (false on the server and in the
 * hydrating render): for what only works once the page's script runs.
 */
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};
const browserSnapshot = () => true;
const serverSnapshot = () => false;

export function useInBrowser(): boolean {
  return useSyncExternalStore(noSubscription, browserSnapshot, serverSnapshot);
}
