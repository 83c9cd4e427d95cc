import { describe, expect, it } from "vitest";

import { creditNoteFigures } from "./credit-note-figures";

const line = (name: string, amount_cents: number, rate_basis_points = 1800) => ({
  name,
  rate_basis_points,
  amount_cents,
  inclusive: false,
});

describe("creditNoteFigures", () => {
  it("gives back the whole charge with the invoice's taxes", () => {
    const invoice = { amountCents: 11_800, taxLines: [line("GST", 1_800)] };
    expect(creditNoteFigures({ invoice, refundedBeforeCents: 0, amountCents: 11_800 })).toEqual({
      netCents: 10_000,
      taxLines: [line("GST", 1_800)],
      amountCents: 11_800,
    });
  });

  it("splits the taxes in proportion, in whole cents, net + taxes = amount", () => {
    const invoice = { amountCents: 11_800, taxLines: [line("CGST", 900, 900), line("SGST", 900, 900)] };
    const note = creditNoteFigures({ invoice, refundedBeforeCents: 0, amountCents: 1_000 });
    // 900 × 1000 / 11800 = 76.27… → 76
    expect(note.taxLines.map((l) => l.amount_cents)).toEqual([76, 76]);
    expect(note.netCents).toBe(848);
    expect(note.netCents + 152).toBe(note.amountCents);
  });

  it("partial notes of a fully refunded invoice add up to its taxes exactly", () => {
    const invoice = { amountCents: 1_001, taxLines: [line("VAT", 167, 2000)] };
    const parts = [333, 333, 335];
    let before = 0;
    let taxes = 0;
    let net = 0;
    for (const amount of parts) {
      const note = creditNoteFigures({ invoice, refundedBeforeCents: before, amountCents: amount });
      expect(note.taxLines.every((l) => Number.isSafeInteger(l.amount_cents))).toBe(true);
      taxes += note.taxLines[0]!.amount_cents;
      net += note.netCents;
      before += amount;
    }
    expect(taxes).toBe(167);
    expect(net).toBe(1_001 - 167);
  });

  it("has no tax lines for an invoice without taxes, and refuses more than was charged", () => {
    const invoice = { amountCents: 500, taxLines: [] };
    expect(creditNoteFigures({ invoice, refundedBeforeCents: 100, amountCents: 400 })).toEqual({
      netCents: 400,
      taxLines: [],
      amountCents: 400,
    });
    expect(() => creditNoteFigures({ invoice, refundedBeforeCents: 100, amountCents: 401 })).toThrow(RangeError);
    expect(() => creditNoteFigures({ invoice, refundedBeforeCents: 0, amountCents: 1.5 })).toThrow(RangeError);
  });
});
