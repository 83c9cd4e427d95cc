"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { Button } from "@/components/ui";

/** Ends the session (next-auth, with its CSRF token), drops every cached query, and goes to the sign-in page. */
export function SignOutButton() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  async function handleClick() {
    setPending(true);
    try {
      await signOut({ redirect: false });
    } finally {
      // The next person to sign in on this tab must not see this user's data, even briefly.
      queryClient.clear();
      router.replace("/admin/sign-in");
      router.refresh();
    }
  }

  return (
    <Button onClick={handleClick} loading={pending} loadingText="Signing out…" className="shrink-0 whitespace-nowrap">
      Sign out
    </Button>
  );
}
