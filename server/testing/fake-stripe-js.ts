/**
 * A fake of Stripe.js (https://js.stripe.com/v3/) for browser tests only: the fake Stripe server
 * (fake-stripe.ts) bundles this file and serves it at `/v3/`, so it is never part of the product's
 * build. It implements the subset of Stripe.js's documented API the AccessType SDK uses
 * (sdk/accesstype/stripe.ts):
 *
 *   Stripe(publishableKey) → stripe
 *   stripe.elements({clientSecret}) → elements;  elements.create("payment") → element
 *   element.mount(domElement | selector), element.destroy()
 *   stripe.confirmPayment({elements, confirmParams, redirect: "if_required"}) → {paymentIntent} | {error}
 *
 * The Payment Element is a plain accessible card form (number, expiry, CVC). Confirming sends the
 * card to the fake server's browser endpoints (fake-stripe-browser.ts), which decide by Stripe's
 * test card numbers: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0027 6000
 * 3184 requires 3-D Secure. Then, as Stripe.js does, a challenge dialog opens in the page, with
 * "Complete authentication" and "Fail authentication" like Stripe's test challenge page (Escape
 * abandons it: failed).
 */

type StripeError = { type: string; code?: string; decline_code?: string; message: string; payment_intent?: unknown };
type PaymentIntentView = { id: string; status: string; amount: number; currency: string };
type Answer = { payment_intent?: PaymentIntentView; error?: StripeError };

const script = document.currentScript as HTMLScriptElement | null;
const API = new URL(script?.src ?? location.href).origin;

/** Luhn's check, as Stripe.js checks a card number before sending it. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

async function post(path: string, body: Record<string, unknown>): Promise<Answer> {
  try {
    const response = await fetch(`${API}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Answer;
  } catch {
    return { error: { type: "api_connection_error", message: "We could not reach Stripe. Try again." } };
  }
}

function field(label: string, name: string, autocomplete: AutoFill, placeholder: string): HTMLLabelElement {
  const wrap = document.createElement("label");
  wrap.style.cssText = "display:flex;flex-direction:column;gap:4px;font:14px/1.4 system-ui,sans-serif;color:#1f2937";
  const text = document.createElement("span");
  text.textContent = label;
  const input = document.createElement("input");
  input.name = name;
  input.autocomplete = autocomplete;
  input.inputMode = "numeric";
  input.placeholder = placeholder;
  input.style.cssText =
    "min-height:44px;padding:6px 8px;border:1px solid #6b7280;border-radius:4px;font:16px system-ui,sans-serif;color:#111827;background:#fff";
  wrap.append(text, input);
  return wrap;
}

class PaymentElement {
  private root: HTMLDivElement | null = null;
  mount(target: string | HTMLElement): void {
    const host = typeof target === "string" ? document.querySelector<HTMLElement>(target) : target;
    if (!host) throw new Error("IntegrationError: mount() found no element to mount into.");
    const root = document.createElement("div");
    root.dataset.fakeStripe = "payment-element";
    root.style.cssText = "display:grid;gap:8px;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr))";
    const number = field("Card number", "cardnumber", "cc-number", "1234 1234 1234 1234");
    number.style.gridColumn = "1 / -1";
    root.append(
      number,
      field("Expiration date (MM / YY)", "exp-date", "cc-exp", "MM / YY"),
      field("Security code", "cvc", "cc-csc", "CVC"),
    );
    host.append(root);
    this.root = root;
  }
  destroy(): void {
    this.root?.remove();
    this.root = null;
  }
  unmount(): void {
    this.destroy();
  }
  on(): this {
    return this;
  }
  /** What the reader typed, or the validation error Stripe.js would answer. */
  card(): { number: string; exp: string; cvc: string } | StripeError {
    const value = (name: string) => this.root?.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? "";
    const number = value("cardnumber").replace(/\s+/g, "");
    const exp = value("exp-date").replace(/\s+/g, "");
    const cvc = value("cvc").trim();
    if (!/^\d+$/.test(number) || !luhn(number))
      return { type: "validation_error", code: "invalid_number", message: "Your card number is invalid." };
    const m = /^(\d{2})\/?(\d{2})$/.exec(exp);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 12)
      return {
        type: "validation_error",
        code: "invalid_expiry_month",
        message: "Your card's expiration date is incomplete.",
      };
    const now = new Date();
    const year = 2000 + Number(m[2]);
    if (year < now.getFullYear() || (year === now.getFullYear() && Number(m[1]) < now.getMonth() + 1))
      return {
        type: "validation_error",
        code: "invalid_expiry_year_past",
        message: "Your card's expiration year is in the past.",
      };
    if (!/^\d{3,4}$/.test(cvc))
      return { type: "validation_error", code: "incomplete_cvc", message: "Your card's security code is incomplete." };
    return { number, exp, cvc };
  }
}

class Elements {
  readonly element = new PaymentElement();
  constructor(readonly clientSecret: string) {}
  create(type: string): PaymentElement {
    if (type !== "payment") throw new Error(`IntegrationError: this fake Stripe.js has only the "payment" element.`);
    return this.element;
  }
  getElement(type: string): PaymentElement | null {
    return type === "payment" ? this.element : null;
  }
}

/** Stripe's 3-D Secure test page, as a dialog: the reader completes or fails the authentication. */
function challenge(): Promise<boolean> {
  return new Promise((resolve) => {
    const backdrop = document.createElement("div");
    backdrop.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:rgba(0,0,0,.5);padding:16px";
    const dialog = document.createElement("div");
    dialog.setAttribute("role", "dialog");
    dialog.setAttribute("aria-modal", "true");
    dialog.setAttribute("aria-labelledby", "fake-stripe-3ds-title");
    dialog.setAttribute("aria-describedby", "fake-stripe-3ds-text");
    dialog.style.cssText =
      "max-width:24rem;width:100%;background:#fff;color:#111827;border-radius:8px;padding:20px;font:15px/1.5 system-ui,sans-serif";
    const title = document.createElement("h2");
    title.id = "fake-stripe-3ds-title";
    title.textContent = "3D Secure 2 Test Page";
    title.style.cssText = "margin:0 0 8px;font-size:18px";
    const text = document.createElement("p");
    text.id = "fake-stripe-3ds-text";
    text.textContent = "This is a test payment that needs authentication. Complete or fail it.";
    const row = document.createElement("div");
    row.style.cssText = "display:flex;flex-wrap:wrap;gap:8px;margin-top:12px";
    const button = (label: string, passed: boolean, primary: boolean) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.style.cssText = `min-height:44px;padding:8px 12px;border-radius:4px;font:600 15px system-ui,sans-serif;${
        primary ? "background:#166534;color:#fff;border:0" : "background:#fff;color:#991b1b;border:1px solid #991b1b"
      }`;
      b.addEventListener("click", () => done(passed));
      return b;
    };
    const complete = button("Complete authentication", true, true);
    row.append(complete, button("Fail authentication", false, false));
    dialog.append(title, text, row);
    backdrop.append(dialog);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") done(false);
    };
    function done(passed: boolean) {
      document.removeEventListener("keydown", onKey);
      backdrop.remove();
      resolve(passed);
    }
    document.addEventListener("keydown", onKey);
    document.body.append(backdrop);
    complete.focus();
  });
}

function stripeFactory(publishableKey: string) {
  if (!/^pk_(test|live)_/.test(String(publishableKey)))
    throw new Error("IntegrationError: Stripe() needs a publishable key (pk_…).");
  return {
    elements(options: { clientSecret?: string } = {}) {
      if (!options.clientSecret) throw new Error("IntegrationError: elements() needs a clientSecret here.");
      return new Elements(options.clientSecret);
    },
    async confirmPayment(options: { elements?: Elements; redirect?: string; confirmParams?: { return_url?: string } }) {
      const elements = options.elements;
      if (!elements) throw new Error("IntegrationError: confirmPayment() needs elements.");
      if (options.redirect !== "if_required" && !options.confirmParams?.return_url)
        throw new Error("IntegrationError: confirmPayment() needs confirmParams.return_url.");
      const card = elements.element.card();
      if ("type" in card) return { error: card };
      const id = elements.clientSecret.split("_secret_")[0] ?? "";
      const auth = { key: publishableKey, client_secret: elements.clientSecret };
      const confirmed = await post(`/js/payment_intents/${encodeURIComponent(id)}/confirm`, { ...auth, card });
      if (confirmed.error) return { error: confirmed.error };
      if (confirmed.payment_intent?.status !== "requires_action") return { paymentIntent: confirmed.payment_intent };
      const passed = await challenge();
      const authenticated = await post(`/js/payment_intents/${encodeURIComponent(id)}/authenticate`, {
        ...auth,
        passed,
      });
      return authenticated.error ? { error: authenticated.error } : { paymentIntent: authenticated.payment_intent };
    },
  };
}

(window as unknown as { Stripe: typeof stripeFactory }).Stripe = stripeFactory;
