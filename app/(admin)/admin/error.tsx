"use client";

/**
 * What a dashboard page shows when it fails on the server, inside the dashboard's frame (the
 * navigation stays). It names the failure so a report can be matched with the server's log:
 * - a failed tRPC call carries the request id of that call (`data.requestId`, the X-Request-Id
 *   of its response, logged with the error by app/api/trpc);
 * - a page that failed to render carries Next.js's error digest, which instrumentation.ts logs
 *   together with the request id of the page request ("page render failed").
 * Never the error's message: in production it is Next's placeholder, and it may hold internals.
 */
import { useRouter } from "next/navigation";
import { startTransition, useEffect, useRef } from "react";

import { Button, ButtonLink, Code, errorReference } from "@/components/ui";

export default function AdminError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const requestId = errorReference(error);
  const router = useRouter();
  // A failure on the server is only retried by asking the server again: refresh, then re-render.
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });

  return (
    <div className="py-12 text-center" role="alert" data-testid="admin-error">
      <p className="text-sm font-semibold text-red-700">Error</p>
      <h1 ref={heading} tabIndex={-1} className="mt-2 text-2xl font-semibold tracking-tight text-gray-900 outline-none">
        Something went wrong on our side
      </h1>
      <p className="mx-auto mt-3 max-w-md text-sm text-gray-600">
        The page could not be shown. Try again; if it keeps failing, send this reference to whoever runs Masthead: it
        finds the error in the server&apos;s log.
      </p>
      <p className="mt-4 text-sm break-all text-gray-700" data-testid="error-reference">
        {requestId ? (
          <>
            Request id <Code>{requestId}</Code>
          </>
        ) : error.digest ? (
          <>
            Error reference <Code>{error.digest}</Code>
          </>
        ) : (
          "No reference: the error happened in your browser."
        )}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button variant="primary" size="lg" onClick={retry}>
          Try again
        </Button>
        <ButtonLink href="/admin" size="lg">
          Back to the overview
        </ButtonLink>
      </div>
    </div>
  );
}
