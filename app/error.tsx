"use client";

/**
 * A failure above the dashboard's own pages (its layout, which reads the session, or the root
 * layout's children): the same error page as app/(admin)/admin/error.tsx, with the reference that
 * finds the failure in the server's log, instead of Next.js's bare "Application error" page.
 */
export { default } from "./(admin)/admin/error";
