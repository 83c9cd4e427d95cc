"use client";

/**
 * The demo paywall's access check (./paywall-demo.tsx): the AccessType SDK loaded, the demo
 * reader kept for the tab, and the check of the story for that reader (granted: the rest of the
 * story from the content API's gated read, a metered read counted; denied: the paywall).
 */
import { useCallback, useEffect, useRef, useState } from "react";

import type { AccessGrant, AccessTypeApi } from "@/sdk/accesstype/types";

import { graceWithCardLink, type Grace } from "./paywall-grace";
import type { Reader } from "./paywall-reader";
import { message, storyParagraphs } from "./paywall-text";
import type { DemoWords } from "./paywall-words";

export type View =
  | { kind: "loading" }
  | { kind: "granted"; grant: AccessGrant; paragraphs: string[]; grace: Grace | null }
  | { kind: "denied"; grant: AccessGrant | null }
  | { kind: "error"; message: string };

export const READER_KEY = "masthead_demo_reader";

function loadSdk(accountKey: string): Promise<AccessTypeApi> {
  if (window.AccessType) return Promise.resolve(window.AccessType);
  return new Promise((resolve, reject) => {
    const done = () => (window.AccessType ? resolve(window.AccessType) : reject(new Error("no AccessType")));
    let script = document.getElementById("AccessTypeScript") as HTMLScriptElement | null;
    if (!script) {
      script = document.createElement("script");
      script.id = "AccessTypeScript";
      script.dataset.accesstypeScript = "1";
      script.src = `/frontend/v2/accesstype.js?key=${encodeURIComponent(accountKey)}`;
      script.async = true;
      document.head.appendChild(script);
    }
    script.addEventListener("load", done, { once: true });
    script.addEventListener("error", () => reject(new Error("no SDK script")), { once: true });
  });
}

function savedReader(): Reader | null {
  try {
    const reader = JSON.parse(sessionStorage.getItem(READER_KEY) ?? "null") as Reader | null;
    return reader && new Date(reader.expiresAt).getTime() > Date.now() + 60_000 ? reader : null;
  } catch {
    return null;
  }
}

/** The SDK, the reader and what the check answered; `check` runs it again (after a purchase). */
export function usePaywallAccess(args: { accountKey: string; storyId: string; words: DemoWords }) {
  const { accountKey, storyId, words } = args;
  const [sdk, setSdk] = useState<AccessTypeApi | null>(null);
  const [reader, setReader] = useState<Reader | null>(null);
  const [view, setView] = useState<View>({ kind: "loading" });
  // Only the latest check may count a read or show its answer (a sign-in starts a new one while
  // the anonymous one may still be in flight; the SDK's user is one for the page).
  const checkSeq = useRef(0);

  useEffect(() => {
    loadSdk(accountKey).then(
      (api) => {
        setReader(savedReader());
        setSdk(api);
      },
      (error: unknown) => setView({ kind: "error", message: message(error, words) }),
    );
  }, [accountKey, words]);

  const check = useCallback(
    async (api: AccessTypeApi, who: Reader | null) => {
      const seq = ++checkSeq.current;
      const stale = () => seq !== checkSeq.current;
      await api.setUser(who ? { accesstypeJwt: who.jwt, emailAddress: who.email } : { isLoggedIn: false });
      const asset = { id: storyId, type: "story" };
      const grant = await api.isAssetAccessible(asset, false);
      if (stale()) return;
      if (!grant.granted) {
        setView({ kind: "denied", grant });
        return;
      }
      // The rest of the story, from the content API's gated read: 402 unless this reader may read it.
      const query = new URLSearchParams({ "check-access": "true", key: accountKey, readerId: api.getReaderId() });
      if (who) query.set("accesstype_jwt", who.jwt);
      const response = await fetch(`/api/v1/stories/${encodeURIComponent(storyId)}?${query.toString()}`, {
        headers: { Accept: "application/json" },
      });
      if (stale()) return;
      if (response.status === 402) {
        setView({ kind: "denied", grant });
        return;
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as { story?: unknown };
      // A metered read is counted once the story is shown (the AccessType component does the same).
      if (stale()) return;
      if (grant.grantReason === "METERING") await api.pingbackAssetAccess(asset, grant);
      // A subscriber in a grace period (a renewal charge failed) is told so, with where to update the card.
      // (Without the list, the story still shows: the banner is a notice, not the access.)
      const grace =
        who && grant.grantReason === "SUBSCRIBER"
          ? await graceWithCardLink(await api.getSubscriptions().catch(() => []), accountKey, who.jwt)
          : null;
      if (stale()) return;
      setView({ kind: "granted", grant, paragraphs: storyParagraphs(body.story), grace });
    },
    [accountKey, storyId],
  );

  useEffect(() => {
    if (!sdk) return;
    // check() sets state only after its first await (the SDK's answer): an external system's callback.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    check(sdk, reader).catch((error: unknown) => setView({ kind: "error", message: message(error, words) }));
  }, [sdk, reader, check, words]);

  return { sdk, reader, setReader, view, setView, check };
}
