"use client";

/**
 * Page rules (pageRules.list, pageRules.set): a page's comments open, held for a moderator or
 * closed, and slow mode, set by its URL; the pages whose rules are not the default are listed.
 * Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  ErrorAlert,
  FormField,
  Input,
  LoadState,
  Panel,
  Select,
  WholeNumberInput,
} from "@/components/ui";
import {
  PAGE_RULE_MODES,
  ZSetPageRulesInput,
  type TPageRules,
} from "@/server/engagement/moderation/rules/page-rules.schema";

const MODE_LABELS: Record<TPageRules["mode"], string> = {
  open: "Open (the publication's moderation)",
  pre_moderation: "Hold every comment for a moderator",
  closed: "Closed: no new comments",
};

export function PageRulesPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.pageRules.list.queryOptions());
  const [url, setUrl] = useState("");
  const [mode, setMode] = useState<TPageRules["mode"]>("open");
  const [slow, setSlow] = useState("0");
  const [qaMode, setQaMode] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(
    trpc.pageRules.set.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.pageRules.pathKey() });
      },
    }),
  );
  return (
    <Panel title="Page rules" padded>
      <p className="text-sm text-gray-600">
        Rules for one page, named by its URL: hold every comment, close it to new comments, or let each reader comment
        once per so many seconds (slow mode, 0: off), or make it a Q&A page (readers see the questions the page&apos;s
        authors answered, or a moderator marked answered). The comment widget is told. Every change is in the audit log.
      </p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const checked = ZSetPageRulesInput.safeParse({ url, mode, slowModeSeconds: Number(slow), qaMode });
          if (!checked.success) {
            const issue = checked.error.issues[0];
            setProblem(issue ? `${issue.path.join(".") || "input"}: ${issue.message}` : "Check the fields");
            return;
          }
          setProblem(null);
          save.mutate(checked.data);
        }}
      >
        <div className="min-w-64 flex-1">
          <FormField
            label="Page URL"
            hint="Any form of the page's address: http or https, with or without www. or a trailing /, tracking parameters and #… are ignored."
          >
            <Input value={url} placeholder="https://…" maxLength={2000} onChange={(e) => setUrl(e.target.value)} />
          </FormField>
        </div>
        <FormField label="Comments">
          <Select fit value={mode} onChange={(e) => setMode(e.target.value as TPageRules["mode"])}>
            {PAGE_RULE_MODES.map((value) => (
              <option key={value} value={value}>
                {MODE_LABELS[value]}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Slow mode (seconds)">
          <WholeNumberInput min={0} max={86400} value={slow} onChange={(e) => setSlow(e.target.value)} />
        </FormField>
        <Checkbox
          label="Q&A: readers see answered questions only"
          checked={qaMode}
          onChange={(e) => setQaMode(e.target.checked)}
        />
        <Button type="submit" disabled={save.isPending}>
          Set page rules
        </Button>
      </form>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <ErrorAlert error={save.error} />
      {save.data ? (
        <Alert tone="success">{save.data.changed ? "Page rules saved." : "Those are the page's rules already."}</Alert>
      ) : null}
      <LoadState query={list} what="page rules" />
      {list.data?.pages.length ? (
        <ul className="divide-y text-sm">
          {list.data.pages.map((page) => (
            <li key={page.pageId} className="flex flex-wrap justify-between gap-2 py-2">
              <span className="break-all">{page.headline ?? page.url}</span>
              <span className="text-gray-600">
                {MODE_LABELS[page.mode]}
                {page.slowModeSeconds > 0 ? ` · slow mode ${page.slowModeSeconds} s` : ""}
                {page.qaMode ? " · Q&A" : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : list.data ? (
        <p className="text-sm text-gray-600">Every page has the default rules.</p>
      ) : null}
    </Panel>
  );
}
