/**
 * The browser entry of the AccessType SDK, bundled by scripts/build-bundles.mjs into the script
 * Masthead serves at /frontend/v2/accesstype.js?key=<account key> and /sdk/masthead-access.js.
 *
 * Configuration comes from the script tag itself: `key`, `env` and `locale` from its `src` query
 * (or `data-key` / `data-env` / `data-locale` attributes), the API base from its origin (or
 * `data-base-url`); `AccessType.init({key, baseUrl, locale})` overrides them. Defines
 * `window.AccessType` and runs the callbacks queued in `window.accesstypeq`; no other globals.
 * English, the words shown until (or unless) the reader's arrive, is baked in by the build
 * (scripts/build-bundles.mjs: the paywall catalogue's `sdk.*` messages, parsed).
 */
import { createAccessType, drainQueue } from "./client";
import type { SdkMessageTable } from "./messages";
import { razorpayGateway } from "./razorpay";
import { createStripeGateway, loadStripeJs } from "./stripe";
import { domCardForm } from "./stripe-form";
import type { AccessTypeConfig } from "./types";

function scriptConfig(): AccessTypeConfig {
  const script = (document.currentScript ??
    document.querySelector(
      "script#AccessTypeScript, script[data-accesstype-script], script[src*='accesstype.js'], script[src*='masthead-access.js']",
    )) as HTMLScriptElement | null;
  if (!script?.src) return {};
  const src = new URL(script.src, location.href);
  return {
    key: src.searchParams.get("key") ?? script.dataset.key ?? undefined,
    env: src.searchParams.get("env") ?? script.dataset.env ?? undefined,
    locale: src.searchParams.get("locale") ?? script.dataset.locale ?? undefined,
    baseUrl: script.dataset.baseUrl ?? src.origin,
  };
}

declare const __MASTHEAD_SDK_ENGLISH__: SdkMessageTable;

/** The language of the element a form is drawn in: its closest `lang` (the page's `<html lang>`), or null. */
function pageLanguage(container: HTMLElement | string | null | undefined): string | null {
  const element = typeof container === "string" ? document.querySelector(container) : container;
  const tagged = (element ?? document.documentElement).closest("[lang]") ?? document.documentElement;
  return tagged.getAttribute("lang");
}

function randomId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

if (!window.AccessType || typeof window.AccessType.setUser !== "function") {
  const api = createAccessType(scriptConfig(), {
    fetch: (url, init) => fetch(url, init as RequestInit),
    storage: storage(),
    randomId,
    pageLanguage,
    english: __MASTHEAD_SDK_ENGLISH__,
    gateways: {
      razorpay: razorpayGateway,
      stripe: createStripeGateway({ loadStripe: loadStripeJs, cardForm: domCardForm, returnUrl: () => location.href }),
    },
  });
  window.AccessType = api;
  window.accesstypeq = drainQueue(window.accesstypeq, api, (error) =>
    console.error("accesstypeq callback failed", error),
  );
  document.dispatchEvent(new CustomEvent("accesstype:ready"));
}
