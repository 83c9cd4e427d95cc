"use client";

/**
 * Register an OAuth client or edit one: its name and its redirect URIs, one per line. Checked with
 * the schema the server uses (ZCreateOAuthClientInput) before sending; the server's problems are
 * shown next to the same fields.
 */
import { useState } from "react";

import { FormEnd, FormField, Input, serverErrors, Textarea } from "@/components/ui";
import { ZCreateOAuthClientInput, type TCreateOAuthClientInput } from "@/server/oauth/clients.schema";

type Field = "name" | "redirectUris";

function localProblems(values: { name: string; redirectUris: string[] }): Partial<Record<Field, string>> {
  const parsed = ZCreateOAuthClientInput.safeParse(values);
  if (parsed.success) return {};
  const problems: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const [field, index] = issue.path;
    if (field !== "name" && field !== "redirectUris") continue;
    const where = field === "redirectUris" && typeof index === "number" ? `Line ${index + 1}: ` : "";
    problems[field] ??= `${where}${issue.message}`;
  }
  return problems;
}

export function OAuthClientForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: { name: string; redirectUris: string[] };
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: TCreateOAuthClientInput) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [uris, setUris] = useState((initial?.redirectUris ?? []).join("\n"));
  const [local, setLocal] = useState<Partial<Record<Field, string>>>({});
  const server = serverErrors(error, ["name", "redirectUris"]);
  const fieldError = (field: Field) => local[field] ?? server.fields[field];

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const values = {
          name,
          redirectUris: uris
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean),
        };
        const problems = localProblems(values);
        setLocal(problems);
        if (Object.keys(problems).length === 0) onSubmit(values);
      }}
    >
      <FormField label="Name" hint="For you: which application this is." error={fieldError("name")}>
        <Input value={name} maxLength={100} required onChange={(event) => setName(event.target.value)} />
      </FormField>
      <FormField
        label="Redirect URIs"
        hint="One per line, exactly as the application sends them: https (http only for localhost), no fragment."
        error={fieldError("redirectUris")}
      >
        <Textarea
          rows={3}
          value={uris}
          placeholder="https://app.example.com/oauth/callback"
          className="font-mono text-xs"
          onChange={(event) => setUris(event.target.value)}
        />
      </FormField>
      <FormEnd errors={server} label={submitLabel} pending={pending} pendingText="Saving…" onCancel={onCancel} />
    </form>
  );
}
