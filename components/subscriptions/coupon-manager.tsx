"use client";

/**
 * The subscription coupons in the dashboard (REVENUE staff), a ResourceManager: a percentage or a
 * fixed amount off (typed as a decimal, sent as integer cents), valid from the start of one day to
 * the end of another, both days of the account's zone ("until 30 Nov": through 23:59:59.999 of
 * 30 Nov there), for some plans or groups or every plan.
 */
import { useMemo } from "react";

import { crud, defineManager, idsOf, type FormValues } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { DateTime, Money, useTimeZone } from "@/components/ui";
import { dayInZone, zonedDayEnd, zonedDayStart } from "@/server/dates.schema";
import { ZCreateCouponInput, ZUpdateCouponInput } from "@/server/subscriptions/catalogue/catalogue.schema";
import { centsToDecimal } from "@/server/subscriptions/money.schema";

import {
  amountProblem,
  cents,
  dateProblem,
  listAll,
  orNull,
  problems,
  useGroupOptions,
  usePlanOptions,
  wholeProblem,
  yesNo,
} from "./form-helpers";

type CouponValues = FormValues & {
  code: string;
  title: string;
  discountType: string;
  percentOff: string;
  /** A decimal amount in amountCurrency; sent as cents. */
  amountOffCents: string;
  amountCurrency: string;
  validFrom: string;
  validUntil: string;
  maxRedemptions: string;
  maxRedemptionsPerSubscriber: string;
  planIds: string;
  groupIds: string;
  enabled: string;
};

type CouponRow = { discountType: "percent" | "fixed"; percentOff: number | null; amountOffCents: number | null };
const isFixed = (v: { discountType: string }) => v.discountType === "fixed";
const discountOf = (c: CouponRow & { amountCurrency: string | null }) =>
  c.discountType === "percent" ? (
    `${c.percentOff} %`
  ) : (
    <Money cents={c.amountOffCents ?? 0} currency={c.amountCurrency ?? "USD"} />
  );
/** The coupon's fields as the procedures take them (create and update alike); days are `zone`'s. */
function couponFields(v: CouponValues, zone: string) {
  const fixed = isFixed(v);
  return {
    title: v.title,
    discountType: fixed ? ("fixed" as const) : ("percent" as const),
    percentOff: fixed ? null : Number(v.percentOff),
    amountOffCents: fixed ? cents(v.amountOffCents, v.amountCurrency) : null,
    amountCurrency: fixed ? orNull(v.amountCurrency) : null,
    validFrom: zonedDayStart(v.validFrom, zone).toISOString(),
    validUntil: v.validUntil ? zonedDayEnd(v.validUntil, zone).toISOString() : null,
    maxRedemptions: v.maxRedemptions ? Number(v.maxRedemptions) : null,
    maxRedemptionsPerSubscriber: v.maxRedemptionsPerSubscriber ? Number(v.maxRedemptionsPerSubscriber) : null,
    planIds: idsOf(v.planIds),
    groupIds: idsOf(v.groupIds),
    enabled: v.enabled === "yes",
  };
}

/** The manager with its date fields on `zone`'s clocks. */
const couponsIn = (zone: string) =>
  defineManager({
    procedures: (trpc) => crud(trpc.subscriptions.coupons),
    listInput: listAll,
    rows: (data) => ({ rows: data }),
  }).with<CouponValues>({
    noun: { one: "coupon", many: "coupons" },
    // The list procedures take no search: a search box would filter nothing.
    search: false,
    rowId: (c) => c.id,
    rowLabel: (c) => c.code,
    columns: [
      { header: "Code", cell: (c) => c.code },
      { header: "Discount", cell: discountOf },
      {
        header: "Valid",
        cell: (c) => (
          <>
            <DateTime value={new Date(c.validFrom)} /> –{" "}
            {c.validUntil ? <DateTime value={new Date(c.validUntil)} /> : "no end"}
          </>
        ),
      },
      {
        header: "Redeemed",
        cell: (c) => `${c.redemptionsCount}${c.maxRedemptions ? ` of ${c.maxRedemptions}` : ""}`,
      },
      {
        header: "For",
        cell: (c) =>
          c.planIds.length || c.groupIds.length
            ? [
                c.planIds.length ? `${c.planIds.length} plan${c.planIds.length > 1 ? "s" : ""}` : "",
                c.groupIds.length ? `${c.groupIds.length} group${c.groupIds.length > 1 ? "s" : ""}` : "",
              ]
                .filter(Boolean)
                .join(", ")
            : "Every plan",
      },
      { header: "Status", cell: (c) => (c.enabled ? "On" : "Off") },
    ],
    fields: [
      { name: "code", kind: "text", label: "Code", required: true, maxLength: 32, mono: true, only: "create" },
      { name: "title", kind: "text", label: "Title", maxLength: 200, optional: true },
      {
        name: "discountType",
        kind: "radio",
        label: "Discount",
        options: [
          { value: "percent", label: "A percentage" },
          { value: "fixed", label: "A fixed amount" },
        ],
      },
      {
        name: "percentOff",
        kind: "text",
        label: "Percent off",
        required: true,
        maxLength: 3,
        hint: "1 to 100",
        when: (v) => !isFixed(v),
      },
      {
        name: "amountOffCents",
        kind: "text",
        label: "Amount off",
        required: true,
        hint: "An amount such as 5.00",
        when: isFixed,
      },
      {
        name: "amountCurrency",
        kind: "text",
        label: "Currency",
        required: true,
        maxLength: 3,
        hint: "e.g. USD",
        when: isFixed,
      },
      {
        name: "validFrom",
        kind: "text",
        type: "date",
        label: "Valid from",
        required: true,
        placeholder: "YYYY-MM-DD",
        hint: `From the start of this day in ${zone}`,
      },
      {
        name: "validUntil",
        kind: "text",
        type: "date",
        label: "Valid until",
        optional: true,
        placeholder: "YYYY-MM-DD",
        hint: `Through the end of this day in ${zone}`,
      },
      { name: "maxRedemptions", kind: "text", label: "Uses in all", optional: true, maxLength: 8 },
      { name: "maxRedemptionsPerSubscriber", kind: "text", label: "Uses per subscriber", optional: true, maxLength: 4 },
      { name: "enabled", kind: "radio", label: "Can be redeemed", options: yesNo },
      {
        name: "planIds",
        kind: "checkboxes",
        label: "Only for these plans",
        hint: "None chosen here or below: every plan.",
        useOptions: usePlanOptions,
        emptyText: "No plans yet.",
      },
      {
        name: "groupIds",
        kind: "checkboxes",
        label: "Only for these groups",
        useOptions: useGroupOptions,
        emptyText: "No groups yet.",
      },
    ],
    emptyValues: () => ({
      code: "",
      title: "",
      discountType: "percent",
      percentOff: "10",
      amountOffCents: "",
      amountCurrency: "USD",
      validFrom: dayInZone(new Date(), zone),
      validUntil: "",
      maxRedemptions: "",
      maxRedemptionsPerSubscriber: "",
      planIds: "",
      groupIds: "",
      enabled: "yes",
    }),
    validate: (v) =>
      problems({
        percentOff: isFixed(v) ? undefined : wholeProblem(v.percentOff, 3, "Enter a whole number from 1 to 100"),
        amountOffCents: isFixed(v) ? amountProblem(v.amountOffCents, v.amountCurrency) : undefined,
        validFrom: dateProblem(v.validFrom),
        validUntil: v.validUntil ? dateProblem(v.validUntil) : undefined,
        maxRedemptions: v.maxRedemptions ? wholeProblem(v.maxRedemptions, 8) : undefined,
        maxRedemptionsPerSubscriber: v.maxRedemptionsPerSubscriber
          ? wholeProblem(v.maxRedemptionsPerSubscriber, 4)
          : undefined,
      }),
    create: {
      schema: ZCreateCouponInput,
      toInput: (v) => ({ code: v.code, ...couponFields(v, zone) }),
    },
    update: {
      schema: ZUpdateCouponInput,
      toValues: (c) => ({
        code: c.code,
        title: c.title,
        discountType: c.discountType,
        percentOff: c.percentOff === null ? "" : String(c.percentOff),
        amountOffCents: c.amountOffCents === null ? "" : centsToDecimal(c.amountOffCents, c.amountCurrency ?? "USD"),
        amountCurrency: c.amountCurrency ?? "USD",
        validFrom: dayInZone(new Date(c.validFrom), zone),
        validUntil: c.validUntil ? dayInZone(new Date(c.validUntil), zone) : "",
        maxRedemptions: c.maxRedemptions === null ? "" : String(c.maxRedemptions),
        maxRedemptionsPerSubscriber:
          c.maxRedemptionsPerSubscriber === null ? "" : String(c.maxRedemptionsPerSubscriber),
        planIds: c.planIds.join(","),
        groupIds: c.groupIds.join(","),
        enabled: c.enabled ? "yes" : "no",
      }),
      toInput: (v, c) => {
        const fields = couponFields(v, zone);
        // An unchanged day keeps the stored instant (a coupon made through the API may start mid-day).
        if (v.validFrom === dayInZone(new Date(c.validFrom), zone)) fields.validFrom = c.validFrom;
        if (c.validUntil && v.validUntil === dayInZone(new Date(c.validUntil), zone)) fields.validUntil = c.validUntil;
        return { id: c.id, ...fields };
      },
    },
    remove: {
      toInput: (c) => ({ id: c.id }),
      confirm: (c) => ({ title: `Delete the coupon ${c.code}?`, body: "Its code is not reused." }),
    },
  });

export function CouponManager() {
  const zone = useTimeZone() ?? "UTC";
  const config = useMemo(() => couponsIn(zone), [zone]);
  return <ResourceManager config={config} />;
}
