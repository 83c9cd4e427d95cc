import type { Metadata } from "next";
import type { ReactNode } from "react";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Masthead", template: "%s · Masthead" },
  description: "Comments, subscriptions and the content API for one newsroom.",
};

/**
 * English by default; a member page sets `<html lang dir>` to its reader's language before the first
 * paint (components/members/reader-shell.tsx, decision 0040), which hydration must not warn about.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen bg-gray-50 antialiased">{children}</body>
    </html>
  );
}
