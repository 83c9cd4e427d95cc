/**
 * The card form the Stripe step (./stripe.ts) draws in the page's container: a labelled form with
 * the place where Stripe's Payment Element mounts, an error line announced to screen readers
 * (role="alert"), and "Pay <amount>" and "Cancel" buttons, in the reader's words, with their
 * language and direction (`lang`, `dir`). Class names (masthead-stripe-*) let the page style it;
 * it brings no style of its own but its layout (logical: it follows the direction).
 */
import type { SdkWords } from "./messages";
import type { CardForm } from "./stripe";
import type { ProceedOptions } from "./types";

export function domCardForm(
  container: ProceedOptions["container"],
  words: SdkWords,
  payLabel: string,
): CardForm | null {
  const host = typeof container === "string" ? document.querySelector<HTMLElement>(container) : container;
  if (!host) return null;
  const form = document.createElement("form");
  form.className = "masthead-stripe-form";
  form.lang = words.locale;
  form.dir = words.dir;
  form.setAttribute("aria-label", words.t("sdk.cardPayment"));
  form.noValidate = true;
  form.style.cssText = "display:grid;gap:12px";
  const mountPoint = document.createElement("div");
  mountPoint.className = "masthead-stripe-element";
  const error = document.createElement("p");
  error.className = "masthead-stripe-error";
  error.setAttribute("role", "alert");
  error.style.margin = "0";
  const actions = document.createElement("div");
  actions.className = "masthead-stripe-actions";
  actions.style.cssText = "display:flex;flex-wrap:wrap;gap:8px";
  const pay = document.createElement("button");
  pay.type = "submit";
  pay.className = "masthead-stripe-pay";
  pay.textContent = payLabel;
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "masthead-stripe-cancel";
  cancel.textContent = words.t("sdk.cancel");
  actions.append(pay, cancel);
  form.append(mountPoint, error, actions);
  host.append(form);
  return {
    mountPoint,
    onSubmit(handler) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (!pay.disabled) handler();
      });
    },
    onCancel(handler) {
      cancel.addEventListener("click", handler);
    },
    busy(on) {
      pay.disabled = on;
      cancel.disabled = on;
      form.setAttribute("aria-busy", String(on));
      pay.textContent = on ? words.t("sdk.paying") : payLabel;
    },
    error(message) {
      error.textContent = message;
    },
    remove() {
      form.remove();
    },
  };
}
