"use client";

/**
 * A/B tests of paywall offers (offers.experiments / start / result / stop): owners start and stop
 * them, revenue staff read them. The result shows each arm and the difference B − A with its 95 %
 * interval (Newcombe's for subscriptions started per reader, Welch's for revenue per reader).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  ErrorAlert,
  FormActions,
  FormField,
  Input,
  LoadState,
  Panel,
  Select,
  Table,
  WholeNumberInput,
} from "@/components/ui";
import { ZExperimentInput } from "@/server/subscriptions/offers/offers.schema";

const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
const cents = (x: number) => `${(x / 100).toFixed(2)}`;

function StartForm({ offers, onStarted }: { offers: { id: number; name: string }[]; onStarted: () => Promise<void> }) {
  const trpc = useTRPC();
  const start = useMutation(trpc.offers.start.mutationOptions({ onSuccess: onStarted }));
  const [name, setName] = useState("");
  const [a, setA] = useState("");
  const [b, setB] = useState("");
  const [split, setSplit] = useState("50");
  const [goal, setGoal] = useState<"subscriptions" | "revenue_30d">("subscriptions");
  const [audience, setAudience] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = ZExperimentInput.safeParse({
          name,
          offerAId: Number(a),
          offerBId: Number(b),
          splitA: Number(split),
          goal,
          segment: { audiences: audience ? [audience] : [] },
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          setProblem(`${issue.path.join(".")}: ${issue.message}`);
          return;
        }
        setProblem(null);
        start.mutate(parsed.data);
      }}
    >
      <Panel title="Start a test" padded>
        <FormField label="Test name">
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </FormField>
        <div className="flex flex-wrap gap-4">
          {(
            [
              ["Offer A", a, setA],
              ["Offer B", b, setB],
            ] as const
          ).map(([label, value, set]) => (
            <FormField key={label} label={label}>
              <Select fit value={value} onChange={(e) => set(e.target.value)}>
                <option value="">Choose…</option>
                {offers.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </Select>
            </FormField>
          ))}
          <FormField label="Percent of readers in A" hint="Fixed per reader; 50 is an even split.">
            <WholeNumberInput min={1} max={99} value={split} onChange={(e) => setSplit(e.target.value)} />
          </FormField>
        </div>
        <div className="flex flex-wrap gap-4">
          <FormField label="Goal">
            <Select fit value={goal} onChange={(e) => setGoal(e.target.value as typeof goal)}>
              <option value="subscriptions">Subscriptions started</option>
              <option value="revenue_30d">Revenue in 30 days</option>
            </Select>
          </FormField>
          <FormField label="Readers in the test">
            <Select fit value={audience} onChange={(e) => setAudience(e.target.value)}>
              <option value="">Everyone who meets the paywall</option>
              <option value="anonymous">Anonymous</option>
              <option value="registered">Registered</option>
              <option value="lapsed">Lapsed subscribers</option>
            </Select>
          </FormField>
        </div>
      </Panel>
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      <ErrorAlert error={start.error} />
      <FormActions>
        <Button type="submit" variant="primary" loading={start.isPending} loadingText="Starting…">
          Start test
        </Button>
      </FormActions>
    </form>
  );
}

function Result({ id, offerName }: { id: string; offerName: (id: number) => string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const result = useQuery(trpc.offers.result.queryOptions({ id }));
  const stop = useMutation(
    trpc.offers.stop.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() }),
    }),
  );
  if (!result.data) return <LoadState query={result} what="result" />;
  const { experiment, arms, result: r, worseArm } = result.data;
  const money = experiment.goal === "revenue_30d";
  const show = (x: number) => (money ? cents(x) : percent(x));
  return (
    <Panel title={`Result: ${experiment.name}`} padded data-testid="test-result">
      <Table
        label="Arms"
        rows={arms}
        rowKey={(x) => x.arm}
        columns={[
          { header: "Arm", cell: (x) => `${x.arm.toUpperCase()}: ${offerName(x.offerId)}` },
          { header: "Readers", cell: (x) => x.exposures },
          { header: "Subscribed", cell: (x) => x.conversions },
          { header: "Rate", cell: (x) => (x.exposures ? percent(x.conversions / x.exposures) : "–") },
          { header: "Revenue in 30 days", cell: (x) => cents(x.revenueCents) },
        ]}
      />
      <p data-testid="test-difference">
        B − A ({money ? "revenue per reader" : "subscriptions per reader"}): <strong>{show(r.diff)}</strong>, 95 %
        interval {show(r.ci95.low)} to {show(r.ci95.high)} ({r.method === "newcombe" ? "Newcombe" : "Welch"}).
      </p>
      {worseArm ? <Alert tone="warning">Arm {worseArm.toUpperCase()} is clearly worse (99 % interval).</Alert> : null}
      <p>
        {experiment.status === "running" ? (
          <Badge tone="green">running</Badge>
        ) : (
          <Badge tone="gray">stopped {experiment.stopReason === "auto" ? "by itself" : "by an owner"}</Badge>
        )}
      </p>
      <ErrorAlert error={stop.error} />
      {experiment.status === "running" ? (
        <Button onClick={() => stop.mutate({ id })} loading={stop.isPending} loadingText="Stopping…">
          Stop test
        </Button>
      ) : null}
    </Panel>
  );
}

export function OfferTests() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tests = useQuery(trpc.offers.experiments.queryOptions());
  const offers = useQuery(trpc.offers.list.queryOptions());
  const [shown, setShown] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const names = new Map((offers.data ?? []).map((o) => [o.id, o.name]));
  const offerName = (id: number) => names.get(id) ?? `offer ${id}`;
  return (
    <div className="space-y-4">
      <LoadState query={tests} what="tests" />
      {starting ? (
        <StartForm
          offers={offers.data ?? []}
          onStarted={async () => {
            setStarting(false);
            await queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() });
          }}
        />
      ) : null}
      <Panel
        title="Tests"
        actions={
          starting ? null : (
            <Button variant="primary" onClick={() => setStarting(true)}>
              New test
            </Button>
          )
        }
      >
        <Table
          label="Tests"
          rows={tests.data ?? []}
          rowKey={(t) => t.id}
          columns={[
            { header: "Test", cell: (t) => t.name },
            {
              header: "A / B",
              cell: (t) => `${offerName(t.offerAId)} / ${offerName(t.offerBId)} (${t.splitA}/${100 - t.splitA})`,
            },
            {
              header: "Goal",
              cell: (t) => (t.goal === "subscriptions" ? "Subscriptions started" : "Revenue in 30 days"),
            },
            { header: "State", cell: (t) => (t.status === "running" ? "running" : `stopped (${t.stopReason})`) },
            {
              header: "Actions",
              hideHeader: true,
              cell: (t) => (
                <Button size="sm" onClick={() => setShown(t.id)}>
                  Result <span className="sr-only">of {t.name}</span>
                </Button>
              ),
            },
          ]}
        />
      </Panel>
      {shown ? <Result key={shown} id={shown} offerName={offerName} /> : null}
    </div>
  );
}
