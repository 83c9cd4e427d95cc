// GET|POST /api/auth/* – next-auth's endpoints for dashboard sign-in (csrf, callback, session, sign-out).
// Static routes under /api/auth/v1/* are separate route files and take precedence over this catch-all.
// A client's mistake here is answered in the API's JSON error shape (server/http/foreign-routes.ts).
import NextAuth from "next-auth";

import { authOptions } from "@/server/auth/next-auth";
import { AppError } from "@/server/errors";
import { foreignRoutes } from "@/server/http/foreign-routes";

type Context = { params: Promise<{ nextauth: string[] }> };
const nextAuth = NextAuth(authOptions) as (request: Request, context: Context) => Promise<Response>;

/** next-auth's actions (/api/auth/<action>/…); any other path under /api/auth is 404, as elsewhere under /api. */
const ACTIONS = new Set([
  "providers",
  "session",
  "csrf",
  "signin",
  "signout",
  "callback",
  "verify-request",
  "error",
  "_log",
]);

async function handler(request: Request, context: Context): Promise<Response> {
  const [action] = (await context.params).nextauth;
  if (!action || !ACTIONS.has(action)) throw new AppError("NOT_FOUND", "Not found.");
  // next-auth answers a GET of the credentials callback with a plain-text 500: it takes a POST only.
  if (request.method === "GET" && new URL(request.url).pathname.endsWith("/callback/credentials")) {
    throw new AppError("METHOD_NOT_ALLOWED", "Sign in with a POST on this path.", { headers: { Allow: "POST" } });
  }
  return nextAuth(request, context);
}

export const { GET, POST, PUT, PATCH, DELETE } = foreignRoutes(handler, {
  served: ["GET", "POST"],
  library: "next-auth",
});
