/**
 * Who is signed in to the dashboard. The session cookie (a next-auth JWT) only names the user and
 * their server-side session; everything else is read from the database on each request
 * (`findActiveAdminSession` in admin-sessions.ts), so a user disabled, deleted or given other
 * roles, or a session signed out or revoked, is treated accordingly from the next request on.
 */
import "server-only";

import type { AdminRole } from "./roles";

export type AdminSessionUser = {
  id: string;
  name: string;
  email: string;
  accountId: number;
  accountName: string;
  roles: AdminRole[];
  /** The server-side session (AdminSession.id) this request is signed in through. */
  sessionId?: string;
};

export type AdminSession = { user: AdminSessionUser };
