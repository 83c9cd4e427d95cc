"use client";

/**
 * The Scoring page (scoring.overview, scoring.updateLive, scoring.setShadow, scoring.promote,
 * scoring.discard): the live layers over the base scorer (the adaptive layer, the external
 * scorer), a shadow configuration to try, and how the shadow's holds and the live ones agreed
 * with the moderators over the last 30 days; owners promote the shadow or discard it. Checked
 * with the server's zod schemas before sending.
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
  Fieldset,
  FormActions,
  FormField,
  LoadState,
  Panel,
  TextLink,
  useConfirm,
  WholeNumberInput,
} from "@/components/ui";
import {
  ZSetShadowInput,
  type TAgreement,
  type TScoringOverview,
} from "@/server/engagement/moderation/scorer/scoring-settings.schema";

export function ScoringPanel({ isOwner }: { isOwner: boolean }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.scoring.overview.queryOptions());
  return (
    <div className="space-y-6">
      <LoadState query={query} what="scoring" />
      {query.data ? (
        <>
          <LivePanel overview={query.data} />
          <ShadowPanel overview={query.data} isOwner={isOwner} />
        </>
      ) : null}
    </div>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.scoring.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.moderation.settings.queryKey() });
  };
}

function LivePanel({ overview }: { overview: TScoringOverview }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { live, externalScorerHost } = overview.settings;
  const { decisions, active, minDecisions, minPerOutcome } = overview.adaptive;
  const [adaptive, setAdaptive] = useState(live.adaptive);
  const [external, setExternal] = useState(live.externalScorer);
  // The live configuration changed elsewhere (a promotion): the boxes follow, never stale.
  const liveKey = `${live.adaptive}-${live.externalScorer}`;
  const [shown, setShown] = useState(liveKey);
  if (shown !== liveKey) {
    setShown(liveKey);
    setAdaptive(live.adaptive);
    setExternal(live.externalScorer);
  }
  const save = useMutation(trpc.scoring.updateLive.mutationOptions({ onSuccess: refresh }));
  return (
    <Panel title="Live scoring" padded>
      <p className="text-sm text-gray-600">
        Every comment is scored by the built-in scorer{externalScorerHost ? " or the external scorer" : ""}, then held
        at toxicity {live.toxicityThreshold} or more (the threshold is in the{" "}
        <TextLink href="/admin/engagement/settings">moderation settings</TextLink>).
      </p>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ adaptive, externalScorer: external });
        }}
      >
        <Fieldset legend="Layers">
          <Checkbox
            label="Adaptive layer: adjust toxicity and spam by what this publication's moderators decided (at most 25 points)"
            checked={adaptive}
            onChange={(e) => setAdaptive(e.target.checked)}
          />
          <Checkbox
            label={
              externalScorerHost
                ? `External scorer (${externalScorerHost}) instead of the built-in one`
                : "External scorer (none is configured on this server)"
            }
            checked={external}
            disabled={!externalScorerHost && !external}
            onChange={(e) => setExternal(e.target.checked)}
          />
        </Fieldset>
        <p className="text-sm text-gray-600" data-testid="adaptive-decisions">
          Decisions counted: {decisions.approved} approved, {decisions.rejected} rejected, {decisions.spam} marked spam.{" "}
          {active
            ? "Enough for the adaptive layer to act."
            : `The adaptive layer acts from ${minDecisions} decisions, with at least ${minPerOutcome} approved and ${minPerOutcome} rejected or marked spam.`}
        </p>
        <FormActions>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save live scoring
          </Button>
        </FormActions>
      </form>
      <ErrorAlert error={save.error} />
      {save.data ? (
        <Alert tone="success">{save.data.changed.length ? "Live scoring saved." : "Nothing changed."}</Alert>
      ) : null}
    </Panel>
  );
}

const percent = (n: number | null) => (n === null ? "—" : `${Math.round(n * 1000) / 10} %`);

function ShadowPanel({ overview, isOwner }: { overview: TScoringOverview; isOwner: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const confirm = useConfirm();
  const { shadow, live, externalScorerHost } = overview.settings;
  const [adaptive, setAdaptive] = useState(shadow?.adaptive ?? !live.adaptive);
  const [external, setExternal] = useState(shadow?.externalScorer ?? false);
  const [threshold, setThreshold] = useState(String(shadow?.toxicityThreshold ?? live.toxicityThreshold));
  const [problem, setProblem] = useState<string | null>(null);
  const set = useMutation(trpc.scoring.setShadow.mutationOptions({ onSuccess: refresh }));
  const promote = useMutation(trpc.scoring.promote.mutationOptions({ onSuccess: refresh }));
  const discard = useMutation(trpc.scoring.discard.mutationOptions({ onSuccess: refresh }));
  const figures = overview.figures;
  return (
    <Panel title="Shadow mode" padded data-testid="shadow-panel">
      <p className="text-sm text-gray-600">
        Try a configuration before it goes live: every new comment is also decided by it, without effect, and what it
        would have done is kept beside the comment. Below, how its holds and the live ones agreed with the moderators.
      </p>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const checked = ZSetShadowInput.safeParse({
            adaptive,
            externalScorer: external,
            toxicityThreshold: Number(threshold),
          });
          if (!checked.success) {
            const issue = checked.error.issues[0];
            setProblem(issue ? `${issue.path.join(".") || "input"}: ${issue.message}` : "Check the fields");
            return;
          }
          setProblem(null);
          set.mutate(checked.data);
        }}
      >
        <Fieldset legend="Shadow configuration">
          <Checkbox label="Adaptive layer" checked={adaptive} onChange={(e) => setAdaptive(e.target.checked)} />
          <Checkbox
            label={externalScorerHost ? `External scorer (${externalScorerHost})` : "External scorer (none configured)"}
            checked={external}
            disabled={!externalScorerHost && !external}
            onChange={(e) => setExternal(e.target.checked)}
          />
        </Fieldset>
        <FormField label="Shadow toxicity threshold (1 to 100)">
          <WholeNumberInput min={1} max={100} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
        </FormField>
        <FormActions>
          <Button type="submit" variant="primary" disabled={set.isPending}>
            {shadow ? "Change the shadow" : "Run in shadow"}
          </Button>
        </FormActions>
      </form>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <ErrorAlert error={set.error ?? promote.error ?? discard.error} />
      {promote.isSuccess ? <Alert tone="success">The shadow configuration is live.</Alert> : null}
      {discard.isSuccess ? <Alert tone="success">The shadow configuration was discarded.</Alert> : null}
      {shadow && figures ? (
        <div className="space-y-3" data-testid="shadow-figures">
          <p className="text-sm text-gray-700">
            In shadow since <DateTime value={shadow.since} />: adaptive layer {shadow.adaptive ? "on" : "off"}, external
            scorer {shadow.externalScorer ? "on" : "off"}, threshold {shadow.toxicityThreshold}. Comments since{" "}
            <DateTime value={figures.from} /> (at most {figures.days} days): {figures.compared} compared,{" "}
            {figures.judged} judged ({figures.rejected} rejected or spam, {figures.approved} approved, of which{" "}
            {figures.approvedUnreviewed} published a day without a report or a decision), {figures.undecided} left out,{" "}
            {figures.disagreements} decided differently by the two.
          </p>
          {/* A region that takes focus, so a keyboard can scroll the table on a phone. */}
          <div
            role="region"
            aria-label="Agreement with the moderators"
            tabIndex={0}
            className="overflow-x-auto focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
          >
            <table className="min-w-full text-left text-sm" aria-label="Agreement with the moderators">
              <thead className="text-gray-600">
                <tr>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Configuration
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Would hold
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Of which rejected
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Rejections missed
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Precision
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Recall
                  </th>
                </tr>
              </thead>
              <tbody>
                <FigureRow name="Live" figures={figures.live} />
                <FigureRow name="Shadow" figures={figures.shadow} />
              </tbody>
            </table>
          </div>
          <p className="text-xs text-gray-600">
            Precision: of the comments it would hold, the share moderators rejected or marked spam. Recall: of the
            comments moderators rejected or marked spam, the share it would hold. A comment nobody decided counts as
            approved once it has been published a day without a report.
          </p>
          {isOwner ? (
            <FormActions>
              <Button
                variant="primary"
                disabled={promote.isPending}
                onClick={() => {
                  void confirm({
                    title: "Make the shadow configuration live?",
                    body: `Adaptive layer ${shadow.adaptive ? "on" : "off"}, external scorer ${shadow.externalScorer ? "on" : "off"}, toxicity threshold ${shadow.toxicityThreshold}, for every new comment.`,
                    confirmLabel: "Promote",
                    tone: "primary",
                  }).then((ok) => {
                    if (ok) promote.mutate();
                  });
                }}
              >
                Promote the shadow
              </Button>
              <Button
                variant="danger"
                disabled={discard.isPending}
                onClick={() => {
                  void confirm({ title: "Discard the shadow configuration?", confirmLabel: "Discard" }).then((ok) => {
                    if (ok) discard.mutate();
                  });
                }}
              >
                Discard the shadow
              </Button>
            </FormActions>
          ) : (
            <p className="text-sm text-gray-600">An owner can promote the shadow or discard it.</p>
          )}
        </div>
      ) : (
        <p className="text-sm text-gray-600">No configuration is being tried in shadow.</p>
      )}
    </Panel>
  );
}

function FigureRow({ name, figures }: { name: string; figures: TAgreement }) {
  return (
    <tr className="border-t border-gray-200" data-testid={`figures-${name.toLowerCase()}`}>
      <th scope="row" className="py-1 pr-4 font-medium">
        {name}
      </th>
      <td className="py-1 pr-4">{figures.held}</td>
      <td className="py-1 pr-4">{figures.heldRejected}</td>
      <td className="py-1 pr-4">{figures.missed}</td>
      <td className="py-1 pr-4">{percent(figures.precision)}</td>
      <td className="py-1 pr-4">{percent(figures.recall)}</td>
    </tr>
  );
}
