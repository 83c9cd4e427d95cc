"use client";

/**
 * Asks before a page with unsaved changes is left, whichever way the editor leaves it:
 * - reload, closing the tab, typing another address: the browser's own prompt (beforeunload);
 * - a link inside the dashboard: the dashboard's confirm dialog, then the link is followed;
 * - Back and Forward (and any other jump through the tab's history): the same dialog. The
 *   Navigation API's `navigate` event lets a page cancel a same-document traversal; Next's router
 *   only hears `popstate`, which a cancelled traversal never fires, so the page stays as it is.
 *   Browsers without the Navigation API (older than Chrome 102, Firefox 147, Safari 26.2) go Back
 *   without asking; the story's autosave keeps what it has saved.
 *
 *   useLeaveGuard(dirty, { title: "Leave without saving?", body: "…" });
 */
import { useRouter } from "next/navigation";
import { useEffect } from "react";

import { useConfirm } from "./confirm";

type Question = { title: string; body: string; confirmLabel?: string };

/** The part of the Navigation API this uses (lib.dom does not type it yet). */
type NavigateEvent = Event & {
  navigationType: "push" | "replace" | "reload" | "traverse";
  cancelable: boolean;
  destination: { key: string; sameDocument: boolean };
};
type NavigationApi = EventTarget & { traverseTo(key: string): unknown };

export function useLeaveGuard(unsaved: boolean, question: Question): void {
  const confirm = useConfirm();
  const router = useRouter();
  const { title, body, confirmLabel = "Leave" } = question;

  useEffect(() => {
    if (!unsaved) return;
    const leave = () => confirm({ title, body, confirmLabel });

    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };

    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(anchor instanceof HTMLAnchorElement) || anchor.target === "_blank" || anchor.hasAttribute("download"))
        return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      event.stopPropagation();
      void leave().then((ok) => {
        if (ok) router.push(`${url.pathname}${url.search}${url.hash}`);
      });
    };

    const navigation = (window as { navigation?: NavigationApi }).navigation;
    // The one traversal this hook starts itself, after the editor said Leave.
    let allowed: string | null = null;
    const onNavigate = (event: Event) => {
      const navigate = event as NavigateEvent;
      if (navigate.navigationType !== "traverse" || !navigate.cancelable) return;
      if (navigate.destination.key === allowed) return;
      event.preventDefault();
      const key = navigate.destination.key;
      void leave().then((ok) => {
        if (!ok || !navigation) return;
        allowed = key;
        navigation.traverseTo(key);
      });
    };

    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    navigation?.addEventListener("navigate", onNavigate);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
      navigation?.removeEventListener("navigate", onNavigate);
    };
  }, [unsaved, confirm, router, title, body, confirmLabel]);
}
