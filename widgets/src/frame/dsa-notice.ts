/**
 * The comments widget's notice of illegal content (EU Digital Services Act art. 16; docs/privacy.md,
 * "Illegal-content notices"): from the Report flow, its own path for every reader, signed in or
 * not. A category (the DSA Transparency Database's), the law or reason, a name and e-mail (the
 * e-mail required without sign-in: the decision is sent to it) and a statement of good faith; a
 * reader who is not signed in also solves the captcha. The comment stays as it is: moderators decide.
 */
import { DSA_CATEGORY_MESSAGES } from "../../../i18n/dsa-categories";
import { solveCaptcha, type CaptchaChallenge } from "../captcha";
import { api, ApiError, base, config, errorText, jwt, pagePath, reportHeight, t, workerUrl } from "./core";
import { h } from "./dom";
import type { Comment, Obj } from "./types";

function field(label: string, control: HTMLElement): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

/** The notice form for `comment`; `onCancel` puts back what it replaced. */
export function dsaNoticeForm(comment: Comment, onCancel: () => void): HTMLFormElement {
  const form = h("form", { class: "report dsa", "data-dsa-notice": String(comment.id) }) as HTMLFormElement;
  const category = h("select", { name: "category", required: "" }) as HTMLSelectElement;
  for (const [value, key] of DSA_CATEGORY_MESSAGES) category.append(h("option", { value }, t(key)));
  const law = h("textarea", { name: "law_or_reason", required: "", minlength: "10", maxlength: "1000", rows: "3" });
  const name = h("input", { type: "text", name: "name", maxlength: "200", autocomplete: "name" }) as HTMLInputElement;
  const email = h("input", {
    type: "email",
    name: "email",
    maxlength: "254",
    autocomplete: "email",
    ...(jwt ? {} : { required: "" }),
  }) as HTMLInputElement;
  const faith = h("input", { type: "checkbox", name: "good_faith", required: "" }) as HTMLInputElement;
  const status = h("p", { class: "meta", role: "status" });
  const send = h("button", { class: "btn", type: "submit" }, t("dsaSend"));
  const cancel = h("button", { class: "link", type: "button" }, t("cancel"));
  cancel.addEventListener("click", onCancel);
  form.append(
    h("p", { class: "dsa-title" }, h("strong", {}, t("dsaTitle"))),
    h("p", { class: "meta" }, t("dsaIntro")),
    field(t("dsaCategory"), category),
    field(t("dsaLaw"), law),
    field(t("dsaName"), name),
    field(jwt ? t("dsaEmail") : t("dsaEmailRequired"), email),
    h("label", { class: "check" }, faith, h("span", {}, t("dsaGoodFaith"))),
    status,
    h("div", { class: "row" }, cancel, send),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send.setAttribute("disabled", "");
    void (async () => {
      const body: Obj = {
        category: category.value,
        law_or_reason: (law as HTMLTextAreaElement).value.trim(),
        good_faith: faith.checked,
        locale: config.locale,
      };
      if (name.value.trim()) body.name = name.value.trim();
      if (email.value.trim()) body.email = email.value.trim();
      if (jwt) body.jwt = jwt;
      else {
        status.textContent = t("solving");
        reportHeight();
        const challenge = await api<CaptchaChallenge>("GET", base + "/captcha/challenge");
        const answer = await solveCaptcha(challenge, workerUrl);
        if (!answer) throw new ApiError(0, t("error"));
        body.captcha_response = answer;
      }
      await api("POST", pagePath + "/comments/" + comment.id + "/illegal-content-notice", body);
      form.replaceChildren(h("p", { role: "status" }, t("dsaSent")));
      reportHeight();
    })().catch((error: unknown) => {
      send.removeAttribute("disabled");
      status.textContent = errorText(error);
      reportHeight();
    });
  });
  return form;
}
