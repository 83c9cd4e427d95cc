import type { Metadata } from "next";

import { CodeBlock, TextLink } from "@/components/ui";
import reference from "@/docs/api-reference.json";
import type { EndpointDoc } from "@/server/docs/api-reference";

export const metadata: Metadata = { title: "API reference" };

/** The generated API reference (docs/api-reference.json, from the request schemas themselves). */
export default function ApiReferencePage() {
  const endpoints = reference as EndpointDoc[];
  return (
    <main className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">API reference</h1>
      <p className="mt-2 text-gray-600">
        Generated from the zod schemas that validate each request. Errors, authentication, rate limits and CORS work the
        same everywhere: see <code>docs/api-conventions.md</code>. <TextLink href="/">Home</TextLink>
      </p>
      {endpoints.map((e) => (
        <section
          key={`${e.method} ${e.path}`}
          className="mt-8 rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
        >
          <h2 className="font-mono text-lg font-semibold [overflow-wrap:anywhere]">
            <span className="mr-2 rounded bg-gray-100 px-2 py-0.5 text-sm">{e.method}</span>
            {e.path}
          </h2>
          {e.summary ? <p className="mt-2 [overflow-wrap:anywhere] text-gray-700">{e.summary}</p> : null}
          <dl className="mt-3 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm [overflow-wrap:anywhere]">
            <dt className="text-gray-500">Authentication</dt>
            <dd>{e.auth}</dd>
            {e.rateLimit ? (
              <>
                <dt className="text-gray-500">Rate limit</dt>
                <dd>{e.rateLimit}</dd>
              </>
            ) : null}
            {e.bodyTypes.length ? (
              <>
                <dt className="text-gray-500">Body</dt>
                <dd>{e.bodyTypes.join(", ")}</dd>
              </>
            ) : null}
          </dl>
          {(["params", "query", "body"] as const).map((part) =>
            e[part] ? (
              <details key={part} className="mt-3 text-sm">
                <summary className="cursor-pointer text-gray-700">
                  {part === "params" ? "Path parameters" : part === "query" ? "Query parameters" : "Body"}
                </summary>
                <CodeBlock label={`${e.method} ${e.path}: ${part}`} className="mt-2 p-3 text-xs">
                  {JSON.stringify(e[part], null, 2)}
                </CodeBlock>
              </details>
            ) : null,
          )}
        </section>
      ))}
    </main>
  );
}
