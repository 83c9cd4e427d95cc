/**
 * Stripe Tax on the fake Stripe server (fake-stripe.ts): `POST /v1/tax/calculations` and
 * `GET /v1/tax/settings`, in Stripe's shapes (the `stripe` package's Tax/Calculations.d.ts,
 * CalculationLineItems.d.ts and Settings.d.ts). A test sets the rates (`setRates`: the
 * jurisdictions that tax an address, by "US/NY" or "DE") and whether Stripe Tax is active
 * (`setActive`: inactive, a calculation is Stripe's 400 `stripe_tax_inactive` and the settings'
 * status is `pending`).
 *
 * Amounts are deterministic: an exclusive line's tax per jurisdiction is amount × rate, rounded half
 * up; an inclusive line's net is amount ÷ (1 + the rates), rounded half up, each jurisdiction
 * net × rate and the last the remainder. A US address without a postal code is Stripe's 400
 * `customer_tax_location_invalid`; `line_items` (and their `tax_breakdown`) come only expanded.
 */
import { expands, int, list, obj, route, str, type Route } from "./fake-stripe-routes";
import { FakeStripeError, invalid, type Obj, type StripeState } from "./fake-stripe-state";

/** One jurisdiction's rate: "New York City" 4.5 (a percentage as Stripe writes it, "4.5"). */
type FakeTaxRate = {
  jurisdiction: string;
  percentage: string;
  level?: "country" | "state" | "county" | "city" | "district";
  /** Stripe's `tax_type` ("sales_tax", "vat") and its display name ("Sales Tax"). */
  taxType?: string;
  displayName?: string;
};

const roundHalfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);
/** "8.875" → 88750 (ten-thousandths of a percent). */
const units = (percentage: string) => {
  const [i = "0", f = ""] = percentage.split(".");
  return BigInt(i) * 10_000n + BigInt((f + "0000").slice(0, 4));
};
const MILLION = 1_000_000n;

function taxOf(amount: number, inclusive: boolean, rates: readonly FakeTaxRate[]): number[] {
  const a = BigInt(amount);
  if (!inclusive) return rates.map((r) => Number(roundHalfUp(a * units(r.percentage), MILLION)));
  const total = rates.reduce((sum, r) => sum + units(r.percentage), 0n);
  const net = roundHalfUp(a * MILLION, MILLION + total);
  let left = a - net;
  return rates.map((r, i) => {
    const t = i === rates.length - 1 ? left : roundHalfUp(net * units(r.percentage), MILLION);
    left -= t;
    return Number(t);
  });
}

// eslint-disable-next-line max-lines-per-function -- a fake gateway: one closure over its state; each handler in it is short
export function fakeStripeTax() {
  let active = true;
  let rates = new Map<string, readonly FakeTaxRate[]>();

  const ratesAt = (country: string, state: string | undefined) =>
    (state ? rates.get(`${country}/${state}`) : undefined) ?? rates.get(country) ?? [];

  // eslint-disable-next-line max-lines-per-function -- Stripe Tax's calculation as the fake answers it, read top to bottom like its API reference
  function calculate(s: StripeState, p: Obj): Obj {
    if (!active)
      throw new FakeStripeError(
        400,
        "invalid_request_error",
        "stripe_tax_inactive",
        "Stripe Tax has not been activated on your account. Please visit https://stripe.com/docs/tax/set-up to get started.",
      );
    const currency = str(p, "currency", true);
    const items = list(p, "line_items");
    if (!items.length) throw invalid("parameter_missing", "Missing required param: line_items.", "line_items");
    const details = obj(p, "customer_details");
    const address = details ? obj(details, "address") : undefined;
    if (!address)
      throw invalid(
        "parameter_missing",
        "Missing required param: customer_details[address].",
        "customer_details[address]",
      );
    const country = str(address, "country", true).toUpperCase();
    const state = str(address, "state")?.toUpperCase();
    const postal = str(address, "postal_code");
    if (country === "US" && !postal)
      throw invalid(
        "customer_tax_location_invalid",
        "We could not determine the customer's tax location based on the provided customer address.",
        "customer_details[address]",
      );
    const source = details ? str(details, "address_source") : undefined;
    if (source !== undefined && source !== "billing" && source !== "shipping")
      throw invalid(
        "parameter_invalid_string",
        `Invalid address_source: ${source}`,
        "customer_details[address_source]",
      );
    const here = ratesAt(country, state);
    const id = s.newId("taxcalc");
    const expand = expands(p);
    let exclusive = 0;
    let inclusive = 0;
    let amountTotal = 0;
    const breakdown = new Map<string, Obj>();
    const lineItems = items.map((item, i) => {
      const amount = int(item, "amount", true);
      const behavior = str(item, "tax_behavior") ?? "exclusive";
      if (behavior !== "exclusive" && behavior !== "inclusive")
        throw invalid(
          "parameter_invalid_string",
          `Invalid tax_behavior: ${behavior}`,
          `line_items[${i}][tax_behavior]`,
        );
      const taxes = taxOf(amount, behavior === "inclusive", here);
      const lineTax = taxes.reduce((a, b) => a + b, 0);
      if (behavior === "inclusive") inclusive += lineTax;
      else exclusive += lineTax;
      amountTotal += behavior === "inclusive" ? amount : amount + lineTax;
      const taxable = behavior === "inclusive" ? amount - lineTax : amount;
      here.forEach((r, j) => {
        const key = `${behavior}|${r.jurisdiction}|${r.percentage}`;
        const b = breakdown.get(key) ?? {
          amount: 0,
          inclusive: behavior === "inclusive",
          tax_rate_details: {
            country,
            flat_amount: null,
            percentage_decimal: r.percentage,
            rate_type: "percentage",
            state: state ?? null,
            tax_type: r.taxType ?? "sales_tax",
          },
          taxability_reason: "standard_rated",
          taxable_amount: 0,
        };
        b.amount = (b.amount as number) + taxes[j]!;
        b.taxable_amount = (b.taxable_amount as number) + taxable;
        breakdown.set(key, b);
      });
      const rendered: Obj = {
        id: s.newId("tax_li"),
        object: "tax.calculation_line_item",
        amount,
        amount_tax: lineTax,
        livemode: false,
        metadata: {},
        performance_location: null,
        product: str(item, "product") ?? null,
        quantity: Number(str(item, "quantity") ?? 1),
        reference: str(item, "reference") ?? `Line item ${i + 1}`,
        tax_behavior: behavior,
        tax_code: str(item, "tax_code") ?? "txcd_10000000",
      };
      if (expand.includes("line_items.data.tax_breakdown"))
        rendered.tax_breakdown = here.length
          ? here.map((r, j) => ({
              amount: taxes[j]!,
              jurisdiction: {
                country,
                display_name: r.jurisdiction,
                level: r.level ?? (state ? "state" : "country"),
                state: state ?? null,
              },
              sourcing: "destination",
              tax_rate_details: {
                display_name: r.displayName ?? "Sales Tax",
                percentage_decimal: r.percentage,
                tax_type: r.taxType ?? "sales_tax",
              },
              taxability_reason: "standard_rated",
              taxable_amount: taxable,
            }))
          : [
              {
                amount: 0,
                jurisdiction: { country, display_name: country, level: "country", state: null },
                sourcing: "destination",
                tax_rate_details: null,
                taxability_reason: "not_collecting",
                taxable_amount: 0,
              },
            ];
      return rendered;
    });
    const calculation: Obj = {
      id,
      object: "tax.calculation",
      amount_total: amountTotal,
      currency,
      customer: null,
      customer_details: {
        address: {
          city: null,
          country,
          line1: null,
          line2: null,
          postal_code: postal ?? null,
          state: state ?? null,
        },
        address_source: source ?? null,
        ip_address: null,
        tax_ids: [],
        taxability_override: "none",
      },
      expires_at: s.now() + 90 * 86_400,
      livemode: false,
      ship_from_details: null,
      shipping_cost: null,
      tax_amount_exclusive: exclusive,
      tax_amount_inclusive: inclusive,
      tax_breakdown: [...breakdown.values()],
      tax_date: s.now(),
    };
    if (expand.some((e) => e === "line_items" || e.startsWith("line_items.")))
      calculation.line_items = {
        object: "list",
        data: lineItems,
        has_more: false,
        url: `/v1/tax/calculations/${id}/line_items`,
      };
    return calculation;
  }

  const settings = (): Obj => ({
    object: "tax.settings",
    defaults: { provider: "stripe", tax_behavior: null, tax_code: "txcd_10000000" },
    head_office: active
      ? {
          address: {
            city: "Wilmington",
            country: "US",
            line1: "1 Main St",
            line2: null,
            postal_code: "19801",
            state: "DE",
          },
        }
      : null,
    livemode: false,
    status: active ? "active" : "pending",
    status_details: active ? { active: {} } : { pending: { missing_fields: ["head_office"] } },
  });

  const routes: Route[] = [
    route("POST", "/v1/tax/calculations", (s, p) => calculate(s, p)),
    route("GET", "/v1/tax/settings", () => settings()),
  ];

  return {
    routes,
    /** The jurisdictions that tax each place: `{ "US/NY": [...], DE: [...] }` (a state's own first, then its country's). */
    setRates(table: Record<string, readonly FakeTaxRate[]>) {
      rates = new Map(Object.entries(table).map(([k, v]) => [k.toUpperCase(), v] as const));
    },
    /** Stripe Tax active (default) or not (calculations refused, settings pending). */
    setActive(on: boolean) {
      active = on;
    },
    reset() {
      active = true;
      rates = new Map();
    },
  };
}
