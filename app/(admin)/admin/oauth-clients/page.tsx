import type { Metadata } from "next";

import { OAuthClientList } from "@/components/oauth/oauth-client-list";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "OAuth clients" };

export default function OAuthClientsPage() {
  return (
    <AdminPage
      area="oauth-clients"
      title="OAuth clients"
      description="Your own applications that sign readers in through Masthead with OAuth 2.0 (authorization code flow). They are first-party: readers see no consent screen, so register only applications you run."
    >
      <OAuthClientList />
    </AdminPage>
  );
}
