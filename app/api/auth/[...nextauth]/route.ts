// GET|POST /api/auth/* – next-auth's endpoints for dashboard sign-in (csrf, callback, session, sign-out).
// Static routes under /api/auth/v1/* are separate route files and take precedence over this catch-all.
import NextAuth from "next-auth";

import { authOptions } from "@/server/auth/next-auth";

const handler = NextAuth(authOptions) as (
  request: Request,
  context: { params: Promise<{ nextauth: string[] }> },
) => Promise<Response>;

export { handler as GET, handler as POST };
