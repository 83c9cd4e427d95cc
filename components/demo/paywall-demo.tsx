"use client";

/**
 * The demo paywall's browser half (docs/subscriptions.md "Demo paywalled story"), written the
 * way a publisher's page would use the AccessType SDK:
 *   1. load /frontend/v2/accesstype.js?key=<account key>; setUser with the demo reader's JWT;
 *   2. isAssetAccessible({id, type: "story"}); granted → fetch the rest of the story from the
 *      content API's gated read (check-access=true), then, for a METERING grant, pingback (counts
 *      the free read); denied → the paywall with the "Digital access" plans, or the
 *      registration wall when the grant's data.wall says "registration" (./paywall-registration.tsx);
 *   3. a coupon code, checked against each plan with validateCoupon: the discounted price, or the
 *      reason it is refused;
 *   4. subscribe: getPaymentOptions().demo_test.proceed(paymentObject, with the coupon when it
 *      applies to the plan) = preview, the test gateway's "payment" (this page's dialog; no money
 *      moves), create; then check again; when the account's Stripe gateway is enabled, "Pay by card"
 *      on the plans that take Stripe: getPaymentOptions().stripe.proceed(paymentObject, {container})
 *      draws Stripe's Payment Element in this page's dialog (./paywall-card.tsx);
 *   5. a subscriber whose renewal failed (getSubscriptions: in_grace_period) sees the grace
 *      banner with the link to update the card (./paywall-grace.tsx).
 * The demo reader "signs in" with an e-mail: /api/demo/reader-jwt mints a JWT for it (demo account
 * only, only with DEMO_TOOLS on). Every word is the paywall catalogue's, in the page's locale
 * (./paywall-words.tsx); the SDK draws its card form in the same language, read from the lang of
 * the container it draws in. Its parts: the check (./paywall-access.ts), the purchases
 * (./paywall-checkout.ts), the paywall's plans and coupon box (./paywall-plans.tsx) and the story
 * when granted (./paywall-granted.tsx).
 */
import { useEffect, useMemo, useState } from "react";

import type { PaymentOption, SubscriptionGroup, SubscriptionPlan } from "@/sdk/accesstype/types";

import { READER_KEY, usePaywallAccess } from "./paywall-access";
import { CardPaymentDialog } from "./paywall-card";
import { usePaywallCheckout } from "./paywall-checkout";
import type { Coupon } from "./paywall-coupon";
import { GrantedStory } from "./paywall-granted";
import { useReaderOffer } from "./paywall-offer";
import { PaywallPlans } from "./paywall-plans";
import { ReaderBar } from "./paywall-reader";
import { RegistrationWall, type WallNewsletter } from "./paywall-registration";
import { TestPaymentDialog } from "./paywall-test-payment";
import { message } from "./paywall-text";
import { demoWords } from "./paywall-words";

type Props = {
  storyId: string;
  accountKey: string;
  demoTools: boolean;
  /** The group of plans the paywall offers. */
  group: string;
  /** The page's locale and direction, and its paywall messages (server/demo/paywall-page.ts). */
  locale: string;
  dir: "ltr" | "rtl";
  messages: [string, string][];
  /** The newsletter the registration wall offers (./paywall-registration.tsx); null: no box. */
  newsletter: WallNewsletter | null;
};

export function PaywallDemo({ storyId, accountKey, demoTools, group, locale, dir, messages, newsletter }: Props) {
  const words = useMemo(() => demoWords(locale, dir, messages), [locale, dir, messages]);
  const { sdk, reader, setReader, view, setView, check } = usePaywallAccess({ accountKey, storyId, words });
  const [plans, setPlans] = useState<SubscriptionPlan[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [options, setOptions] = useState<Record<string, PaymentOption> | null>(null);
  const [couponCode, setCouponCode] = useState("");
  const [coupon, setCoupon] = useState<Coupon | null>(null);
  // The paywall's offer for this reader (its plans, coupon, trial and words replace the page's own).
  const offer = useReaderOffer(sdk, view.kind === "denied", locale, reader?.jwt ?? null);
  const { payment, cardPlan, payError, cardRef, payRef, subscribe, payByCard } = usePaywallCheckout({
    sdk,
    words,
    coupon,
    offer,
    setBusy,
    setNotice,
    afterPurchase: async (api) => {
      setView({ kind: "loading" });
      await check(api, reader);
    },
  });

  useEffect(() => {
    if (!sdk || view.kind !== "denied" || plans.length) return;
    sdk
      .getPlans()
      .then((groups: SubscriptionGroup[]) => setPlans(groups.find((g) => g.name === group)?.subscription_plans ?? []))
      .catch((error: unknown) => setNotice(message(error, words)));
    // The account's gateways: Stripe, when enabled, adds "Pay by card" to the plans that take it.
    sdk
      .getPaymentOptions()
      .then(setOptions)
      .catch(() => setOptions({}));
  }, [sdk, view.kind, plans.length, group, words]);

  async function signIn(email: string) {
    setBusy(true);
    setNotice(null);
    try {
      const response = await fetch(`/api/demo/reader-jwt?key=${encodeURIComponent(accountKey)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email }),
      });
      const body = (await response.json()) as {
        accesstype_jwt?: string;
        expires_at?: string;
        error?: { message: string };
      };
      if (!response.ok || !body.accesstype_jwt) throw new Error("no JWT");
      const next = { email: email.trim().toLowerCase(), jwt: body.accesstype_jwt, expiresAt: body.expires_at! };
      sessionStorage.setItem(READER_KEY, JSON.stringify(next));
      setView({ kind: "loading" });
      setReader(next);
    } catch {
      setNotice(words.t("demo.signInFailed"));
    } finally {
      setBusy(false);
    }
  }

  /** Signed up at the registration wall: signed in as that reader, and welcomed (unless signing in failed). */
  async function registered(email: string) {
    await signIn(email);
    setNotice((said) => said ?? words.t("access.register.welcome"));
  }

  function signOut() {
    sessionStorage.removeItem(READER_KEY);
    setView({ kind: "loading" });
    setReader(null);
  }

  const grant = view.kind === "granted" || view.kind === "denied" ? view.grant : null;
  return (
    <div data-testid="paywall-demo" data-access={view.kind} data-grant-reason={grant?.grantReason ?? ""}>
      <ReaderBar
        reader={reader}
        accountKey={accountKey}
        demoTools={demoTools}
        busy={busy}
        words={words}
        onSignIn={(email) => void signIn(email)}
        onSignOut={signOut}
      />

      {view.kind === "loading" ? <p className="text-gray-700">{words.t("demo.checking")}</p> : null}
      {view.kind === "error" ? <p role="alert">{view.message}</p> : null}

      {view.kind === "granted" ? (
        <GrantedStory
          view={view}
          words={words}
          accountKey={accountKey}
          tools={
            demoTools && reader && sdk
              ? {
                  reader,
                  onRenewalFailed: () => {
                    setView({ kind: "loading" });
                    check(sdk, reader).catch((error: unknown) =>
                      setView({ kind: "error", message: message(error, words) }),
                    );
                  },
                }
              : null
          }
        />
      ) : null}

      {view.kind === "denied" && view.grant?.data.wall === "registration" ? (
        <RegistrationWall
          words={words}
          newsletter={newsletter}
          readerId={sdk?.getReaderId() ?? null}
          onRegistered={registered}
        />
      ) : view.kind === "denied" ? (
        <PaywallPlans
          sdk={sdk}
          plans={plans}
          words={words}
          busy={busy}
          setBusy={setBusy}
          couponCode={couponCode}
          setCouponCode={setCouponCode}
          coupon={coupon}
          setCoupon={setCoupon}
          group={group}
          offer={offer}
          options={options}
          signedIn={reader !== null}
          onSubscribe={(plan) => void subscribe(plan)}
          onPayByCard={(plan) => void payByCard(plan)}
        />
      ) : null}

      {notice ? (
        <p className="mt-4 text-sm" role="status">
          {notice}
        </p>
      ) : null}
      {payError ? (
        <p className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900" role="alert" data-testid="payment-error">
          {payError}
        </p>
      ) : null}
      {cardPlan ? <CardPaymentDialog planTitle={cardPlan} containerRef={cardRef} words={words} /> : null}

      {payment ? <TestPaymentDialog payment={payment} payRef={payRef} words={words} /> : null}
    </div>
  );
}
