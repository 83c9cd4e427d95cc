import type { Metadata } from "next";

import { StatusMessage } from "@/components/ui";

export const metadata: Metadata = { title: "No access" };

/** Rendered with status 403 when a page calls forbidden() (requireAdmin with roles the user lacks). */
export default function Forbidden() {
  return (
    <main className="flex min-h-screen items-center justify-center px-6 py-16">
      <StatusMessage status={403} title={"You don't have access to this page"} className="max-w-md">
        Your roles do not include this part of the dashboard. If you need it, ask an owner of your publication to give
        you the role.
      </StatusMessage>
    </main>
  );
}
