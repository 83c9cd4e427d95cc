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
 * the container it draws in.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";

import type {
  AccessGrant,
  AccessTypeApi,
  GatewayPayment,
  PaymentOption,
  SubscriptionGroup,
  SubscriptionPlan,
} from "@/sdk/accesstype/types";

import { CardPaymentDialog, planPaymentObject, stripePaymentType, takesStripe } from "./paywall-card";
import { couponRefusal, couponSummary, PlanPrice, type Coupon, type CouponResult } from "./paywall-coupon";
import { FailRenewalTool, GraceBanner, graceWithCardLink, type Grace } from "./paywall-grace";
import { OfferCopy, offerCoupon, offerPaymentFields, offerPlans, useReaderOffer } from "./paywall-offer";
import { ReaderBar, type Reader } from "./paywall-reader";
import { RegistrationWall, type WallNewsletter } from "./paywall-registration";
import { TestPaymentDialog, type Payment } from "./paywall-test-payment";
import { message, storyParagraphs } from "./paywall-text";
import { demoWords, type DemoWords } from "./paywall-words";

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
type View =
  | { kind: "loading" }
  | { kind: "granted"; grant: AccessGrant; paragraphs: string[]; grace: Grace | null }
  | { kind: "denied"; grant: AccessGrant | null }
  | { kind: "error"; message: string };

const READER_KEY = "masthead_demo_reader";

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

/** The status line of a granted read: the meter's count, or what grants it. */
function grantNotice(grant: AccessGrant, words: DemoWords): string {
  switch (grant.grantReason) {
    case "METERING":
      return grant.data.isLast
        ? words.t("demo.lastFreeStory")
        : words.t("demo.freeStory", { n: grant.data.numberRemaining ?? 0 });
    case "SUBSCRIBER":
      return words.t("access.subscriber");
    case "ASSET":
      return words.t("access.asset");
    case "LOGGED_IN":
      return words.t("access.loggedIn");
    default:
      return words.t("access.free");
  }
}

export function PaywallDemo({ storyId, accountKey, demoTools, group, locale, dir, messages, newsletter }: Props) {
  const words = useMemo(() => demoWords(locale, dir, messages), [locale, dir, messages]);
  const [sdk, setSdk] = useState<AccessTypeApi | null>(null);
  const [reader, setReader] = useState<Reader | null>(null);
  const [view, setView] = useState<View>({ kind: "loading" });
  const [plans, setPlans] = useState<SubscriptionPlan[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [options, setOptions] = useState<Record<string, PaymentOption> | null>(null);
  const [cardPlan, setCardPlan] = useState<string | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const [couponCode, setCouponCode] = useState("");
  const [coupon, setCoupon] = useState<Coupon | null>(null);
  const payRef = useRef<HTMLButtonElement>(null);
  // Only the latest check may count a read or show its answer (a sign-in starts a new one while
  // the anonymous one may still be in flight; the SDK's user is one for the page).
  const checkSeq = useRef(0);
  // The paywall's offer for this reader (its plans, coupon, trial and words replace the page's own).
  const offer = useReaderOffer(sdk, view.kind === "denied", locale, reader?.jwt ?? null);

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

  useEffect(() => {
    if (payment) payRef.current?.focus();
  }, [payment]);

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

  async function applyCoupon(event: React.FormEvent) {
    event.preventDefault();
    const code = couponCode.trim().toUpperCase();
    if (!sdk || !code) {
      setCoupon(null);
      return;
    }
    setBusy(true);
    const byPlan: Record<number, CouponResult> = {};
    await Promise.all(
      plans.map(async (plan) => {
        try {
          const answer = await sdk.validateCoupon({ subscriptionPlanId: plan.id, couponCode: code });
          byPlan[plan.id] = answer.valid
            ? { ok: true, cents: answer.discounted_price_cents, currency: answer.price_currency }
            : { ok: false, reason: words.t("demo.coupon.notForPlan") };
        } catch (error) {
          byPlan[plan.id] = { ok: false, reason: couponRefusal(error, words) ?? message(error, words) };
        }
      }),
    );
    setCoupon({ code, byPlan });
    setBusy(false);
  }

  function removeCoupon() {
    setCoupon(null);
    setCouponCode("");
  }

  async function subscribe(plan: SubscriptionPlan) {
    if (!sdk) return;
    const withCoupon = coupon?.byPlan[plan.id]?.ok ? coupon.code : null;
    const fromOffer = offerPaymentFields(offer, plan);
    setBusy(true);
    setNotice(null);
    setPayError(null);
    try {
      // The test gateway's browser step: this page's dialog stands in for a gateway's widget.
      sdk.registerGateway("demo_test", ({ preview }) => {
        const order = preview.external_reference_id ?? "";
        const attempt = order.replace(/^demo_order_/, "");
        const cents = preview.subscription.payment_amount_cents ?? plan.price_cents;
        const currency = preview.subscription.payment_amount_currency ?? plan.price_currency;
        const { trial_period_length: trialLength, trial_period_unit: trialUnit } = preview.subscription;
        // The first period's price after the coupon (and tax), as the preview computed it.
        const total = preview.subscription.total_amount_cents;
        const firstPayment = typeof total === "number" ? total : plan.price_cents;
        return new Promise<GatewayPayment>((resolve, reject) =>
          setPayment({
            planTitle: plan.title,
            amount: words.money(cents, currency),
            coupon: withCoupon,
            explanation:
              trialLength && trialUnit
                ? words.t("demo.trialToday", {
                    authorization: words.money(cents, currency),
                    price: words.money(firstPayment, currency),
                    length: trialLength,
                    unit: trialUnit.toLowerCase(),
                  })
                : null,
            resolve: () => resolve({ payment_token: `demo_pay_${attempt}` }),
            reject,
          }),
        );
      });
      const options = await sdk.getPaymentOptions();
      await options.demo_test!.proceed({
        ...planPaymentObject(plan, "demo_test", withCoupon),
        ...fromOffer,
        // A code the reader typed wins over the offer's.
        ...(withCoupon ? { coupon_code: withCoupon } : {}),
      });
      setNotice(words.t("demo.subscribed"));
      setView({ kind: "loading" });
      await check(sdk, reader);
    } catch (error) {
      const code = (error as { error?: { code?: string } }).error?.code;
      setNotice(
        code === "PAYMENT_CANCELLED"
          ? words.t("demo.paymentCancelled")
          : (couponRefusal(error, words) ?? message(error, words)),
      );
    } finally {
      setPayment(null);
      setBusy(false);
    }
  }

  /** Stripe: the SDK previews, draws Stripe's card form in the dialog, confirms (3-D Secure inside), creates. */
  async function payByCard(plan: SubscriptionPlan) {
    if (!sdk) return;
    const withCoupon = coupon?.byPlan[plan.id]?.ok ? coupon.code : null;
    setBusy(true);
    setNotice(null);
    setPayError(null);
    // The dialog (and the container the SDK draws in) is on the page before the SDK looks for it.
    flushSync(() => setCardPlan(plan.title));
    try {
      const current = await sdk.getPaymentOptions();
      await current.stripe!.proceed(planPaymentObject(plan, stripePaymentType(plan), withCoupon), {
        container: cardRef.current,
      });
      setCardPlan(null);
      setNotice(words.t("demo.subscribed"));
      setView({ kind: "loading" });
      await check(sdk, reader);
    } catch (error) {
      const code = (error as { error?: { code?: string } }).error?.code;
      if (code === "PAYMENT_CANCELLED") setNotice(words.t("demo.paymentCancelled"));
      else
        setPayError(
          words.t("demo.paymentNotThrough", { reason: couponRefusal(error, words) ?? message(error, words) }).trim(),
        );
    } finally {
      setCardPlan(null);
      setBusy(false);
    }
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
        <>
          {view.grace ? <GraceBanner grace={view.grace} words={words} /> : null}
          <p className="rounded-md bg-green-50 p-3 text-sm text-green-900" role="status">
            {grantNotice(view.grant, words)}
          </p>
          <div data-testid="story-rest" className="space-y-4">
            {view.paragraphs.map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
          {demoTools && reader && sdk && view.grant.grantReason === "SUBSCRIBER" && !view.grace ? (
            <FailRenewalTool
              accountKey={accountKey}
              jwt={reader.jwt}
              words={words}
              onDone={() => {
                setView({ kind: "loading" });
                check(sdk, reader).catch((error: unknown) =>
                  setView({ kind: "error", message: message(error, words) }),
                );
              }}
            />
          ) : null}
        </>
      ) : null}

      {view.kind === "denied" && view.grant?.data.wall === "registration" ? (
        <RegistrationWall
          words={words}
          newsletter={newsletter}
          readerId={sdk?.getReaderId() ?? null}
          onRegistered={registered}
        />
      ) : view.kind === "denied" ? (
        <section aria-labelledby="paywall-title" className="rounded-lg border-2 border-brand-700 bg-white p-5">
          <h2 id="paywall-title" className="text-xl font-bold">
            {words.t("demo.paywallTitle")}
          </h2>
          <p className="mt-1 text-gray-700">{words.t("demo.paywallText", { group })}</p>
          <OfferCopy offer={offer?.offer} />
          <ul className="mt-4 space-y-3">
            {offerPlans(plans, offer).map((plan) => (
              <li key={plan.id} className="flex flex-wrap items-center justify-between gap-2">
                <PlanPrice plan={plan} coupon={coupon ?? offerCoupon(offer)} words={words} />
                <button
                  type="button"
                  disabled={busy || !reader}
                  onClick={() => void subscribe(plan)}
                  className="rounded bg-brand-700 px-3 py-1.5 font-semibold text-white disabled:opacity-50"
                >
                  {words.t("demo.subscribePlan", { plan: plan.title })}
                </button>
                {takesStripe(options, plan) ? (
                  <button
                    type="button"
                    disabled={busy || !reader}
                    onClick={() => void payByCard(plan)}
                    className="rounded border border-brand-700 px-3 py-1.5 font-semibold text-brand-700 disabled:opacity-50"
                  >
                    {words.t("demo.payByCardPlan", { plan: plan.title })}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          <form onSubmit={applyCoupon} className="mt-4 flex flex-wrap items-end gap-2 text-sm">
            <label className="flex flex-col">
              <span className="font-medium">{words.t("demo.couponCode")}</span>
              <input
                value={couponCode}
                onChange={(e) => setCouponCode(e.target.value)}
                maxLength={64}
                autoComplete="off"
                autoCapitalize="characters"
                className="mt-1 min-h-11 rounded border border-gray-400 bg-white px-2 py-1 uppercase sm:min-h-9"
              />
            </label>
            <button
              type="submit"
              disabled={busy || !couponCode.trim()}
              className="min-h-11 rounded border border-brand-700 px-3 py-1.5 font-semibold text-brand-700 disabled:opacity-50 sm:min-h-9"
            >
              {words.t("demo.apply")}
            </button>
            {coupon ? (
              <button type="button" onClick={removeCoupon} className="min-h-11 px-2 text-gray-700 underline sm:min-h-9">
                {words.t("demo.removeCoupon")}
              </button>
            ) : null}
          </form>
          <p className="mt-2 text-sm" role="status" data-testid="coupon-status">
            {coupon ? couponSummary(coupon, plans, words) : ""}
          </p>
          {!reader ? <p className="mt-3 text-sm text-gray-700">{words.t("demo.signInToSubscribe")}</p> : null}
        </section>
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
