/**
 * The newsletter sign-up widget: an e-mail field and the newsletters to join (a checkbox each, or
 * just the one the container names), sent to POST /api/newsletters/subscribe. The answer is the
 * same for every address (double opt-in: the reader confirms from the mail), so the widget says
 * only that a link was sent if the address can receive mail.
 */
import { api, app, config, errorText, reportHeight, t } from "./core";
import { bdi, h } from "./dom";

export function newsletterWidget(): void {
  const list = config.newsletters || [];
  const children: Node[] = [h("h2", {}, list.length === 1 ? bdi(list[0]!.name) : t("newsletterTitle"))];
  if (!list.length) {
    children.push(h("p", { class: "meta" }, t("newsletterNone")));
    app.replaceChildren(...children);
    reportHeight();
    return;
  }
  if (list.length === 1 && list[0]!.description)
    children.push(h("p", { class: "meta", dir: "auto" }, list[0]!.description));
  const form = h("form", { class: "composer" }) as HTMLFormElement;
  const boxes: [HTMLInputElement, string][] = [];
  if (list.length > 1) {
    const group = h("fieldset", { class: "choices" }, h("legend", { class: "sr-only" }, t("newsletterTitle")));
    for (const n of list) {
      const box = h("input", { type: "checkbox", value: n.slug }) as HTMLInputElement;
      boxes.push([box, n.slug]);
      group.append(h("label", { class: "check" }, box, bdi(n.name)));
    }
    form.append(group);
  }
  const email = h("input", {
    type: "email",
    required: "",
    autocomplete: "email",
    "aria-label": t("newsletterEmail"),
    placeholder: t("newsletterEmail"),
    maxlength: "254",
  }) as HTMLInputElement;
  const status = h("span", { class: "grow", role: "status" });
  const submit = h("button", { class: "btn", type: "submit" }, t("newsletterSubscribe"));
  // The consent wording the server records with the sign-up (server/privacy/consent/wording.ts).
  form.append(email, h("p", { class: "meta" }, t("consentNewsletterNote")), h("div", { class: "row" }, status, submit));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const slugs = list.length === 1 ? [list[0]!.slug] : boxes.filter(([box]) => box.checked).map(([, slug]) => slug);
    if (!slugs.length) {
      status.textContent = t("newsletterChoose");
      return;
    }
    submit.setAttribute("disabled", "");
    api("POST", "/api/newsletters/subscribe", {
      account_id: config.accountId,
      email: email.value,
      newsletters: slugs,
      locale: config.locale,
    })
      .then(() => {
        form.replaceWith(h("p", { class: "notice", role: "status" }, t("newsletterSent")));
        reportHeight();
      })
      .catch((error: unknown) => {
        submit.removeAttribute("disabled");
        status.textContent = errorText(error);
      });
  });
  children.push(form);
  app.replaceChildren(...children);
  reportHeight();
}
