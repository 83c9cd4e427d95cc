"use client";

/**
 * The retention offer (retentionOffer.get/update; REVENUE staff): what the readers' self-service
 * page offers a reader who cancels a recurring subscription (a coupon off the next N charges, or
 * a pause of N periods), and the reasons readers gave when they cancelled
 * (retentionOffer.cancellations). Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  DateTime,
  ErrorAlert,
  fieldProblems,
  FormActions,
  FormField,
  LoadState,
  Panel,
  QueryTable,
  Select,
  serverErrors,
  WholeNumberInput,
} from "@/components/ui";
import { nullPrototypeRecord } from "@/server/own-keys";
import { ZRetentionOfferInput } from "@/server/subscriptions/self-service/self-service.schema";

type View = { kind: "coupon" | "pause"; coupon_id: number | null; periods: number; enabled: boolean } | null;

export function RetentionOfferForm() {
  const trpc = useTRPC();
  const query = useQuery(trpc.retentionOffer.get.queryOptions());
  const coupons = useQuery(trpc.subscriptions.coupons.list.queryOptions());
  // Kept here: a save remounts the editor with the saved values (its key is the stored offer).
  const [saved, setSaved] = useState(false);
  return (
    <div className="space-y-6">
      <LoadState query={query} what="retention offer" />
      {query.isSuccess && coupons.data ? (
        <Editor
          key={JSON.stringify(query.data)}
          view={query.data}
          coupons={coupons.data}
          saved={saved}
          setSaved={setSaved}
        />
      ) : null}
      <Cancellations />
    </div>
  );
}

function Editor({
  view,
  coupons,
  saved,
  setSaved,
}: {
  view: View;
  coupons: { id: number; code: string; title: string }[];
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<"coupon" | "pause">(view?.kind ?? "coupon");
  const [couponId, setCouponId] = useState<string>(view?.coupon_id ? String(view.coupon_id) : "");
  const [periods, setPeriods] = useState(String(view?.periods ?? 3));
  const [enabled, setEnabled] = useState(view?.enabled ?? false);
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const save = useMutation(
    trpc.retentionOffer.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.retentionOffer.pathKey() });
      },
    }),
  );
  const errors = Object.keys(problems).length
    ? fieldProblems(problems)
    : serverErrors(save.error, ["coupon_id", "periods"]);
  const edited = () => setSaved(false);
  return (
    <form
      noValidate
      className="space-y-6"
      data-testid="retention-offer-form"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = ZRetentionOfferInput.safeParse({
          kind,
          coupon_id: kind === "coupon" && couponId ? Number(couponId) : null,
          periods: Number(periods),
          enabled,
        });
        if (!parsed.success) {
          const found = nullPrototypeRecord<string>();
          for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
          setProblems(found);
          return;
        }
        setProblems({});
        save.mutate(parsed.data);
      }}
    >
      <Panel title="Offer to readers who cancel" padded>
        <Checkbox
          label="Make an offer on the cancel form of the self-service page"
          checked={enabled}
          onChange={(e) => {
            setEnabled(e.target.checked);
            edited();
          }}
        />
        <FormField label="Offer">
          <Select
            fit
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as "coupon" | "pause");
              edited();
            }}
          >
            <option value="coupon">A coupon off the next payments</option>
            <option value="pause">A pause (no payment, no access)</option>
          </Select>
        </FormField>
        {kind === "coupon" ? (
          <FormField
            label="Coupon"
            hint="Its percent or amount comes off each discounted payment."
            error={errors.fields.coupon_id}
          >
            <Select
              fit
              value={couponId}
              onChange={(e) => {
                setCouponId(e.target.value);
                edited();
              }}
            >
              <option value="">Choose a coupon…</option>
              {coupons.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.code}
                  {c.title ? ` – ${c.title}` : ""}
                </option>
              ))}
            </Select>
          </FormField>
        ) : null}
        <FormField
          label={kind === "coupon" ? "Discounted payments" : "Periods paused"}
          hint="1 to 12 periods of the reader's plan."
          error={errors.fields.periods}
        >
          <WholeNumberInput
            min={1}
            max={12}
            className="w-24"
            value={periods}
            onChange={(e) => {
              setPeriods(e.target.value);
              edited();
            }}
          />
        </FormField>
        <p className="text-sm text-gray-600">
          Offered once per subscription, to recurring subscriptions only. A pause ends the paid period as usual; the
          subscription resumes (and is charged) when the pause ends.
        </p>
      </Panel>
      <ErrorAlert errors={errors} />
      {saved ? <Alert tone="success">Saved: the next cancel form shows this offer.</Alert> : null}
      <FormActions>
        <Button type="submit" variant="primary" loading={save.isPending} loadingText="Saving…">
          Save offer
        </Button>
      </FormActions>
    </form>
  );
}

function Cancellations() {
  const trpc = useTRPC();
  const query = useQuery(trpc.retentionOffer.cancellations.queryOptions());
  return (
    <Panel title="Why readers cancelled">
      <QueryTable
        query={query}
        what="cancellations"
        emptyText="No cancels yet."
        label="Cancellations table"
        rows={query.data ?? []}
        rowKey={(r) => r.id}
        columns={[
          { header: "When", cell: (r) => <DateTime value={new Date(r.created_at)} /> },
          { header: "Subscription", cell: (r) => `#${r.subscription_id} ${r.plan_name}` },
          { header: "Reason", cell: (r) => r.reason_label },
          { header: "Comment", cell: (r) => r.comment ?? "", className: "max-w-xs whitespace-normal" },
          {
            header: "Outcome",
            cell: (r) =>
              r.outcome === "offer_accepted"
                ? "Took the offer"
                : r.outcome === "paused"
                  ? r.undone
                    ? "Paused by staff, then undone"
                    : "Paused by staff"
                  : r.undone
                    ? "Cancelled, then undone"
                    : "Cancelled",
          },
        ]}
      />
    </Panel>
  );
}
