/**
 * Shared by the dashboard specs: the demo users (from the credentials file the start script's
 * seed writes, falling back to the documented demo values) and a `signIn` helper that uses the
 * real sign-in form.
 */
import fs from "node:fs";
import path from "node:path";

import { expect, test as base, type Page } from "@playwright/test";

export type DemoUser = { email: string; password: string };

const CREDENTIALS_FILE = path.resolve(import.meta.dirname, "../.data-e2e/demo-credentials.json");

const FALLBACK = {
  owner: { email: "owner@demo.masthead.test", password: "masthead-demo-owner" },
  moderator: { email: "moderator@demo.masthead.test", password: "masthead-demo-moderator" },
};

type CredentialsFile = { admin?: DemoUser; users?: (DemoUser & { roles?: string[] })[] };

function readCredentials(): CredentialsFile {
  try {
    return JSON.parse(fs.readFileSync(CREDENTIALS_FILE, "utf8")) as CredentialsFile;
  } catch {
    return {};
  }
}

export function demoUsers(): { owner: DemoUser; moderator: DemoUser } {
  const file = readCredentials();
  const byRole = (role: string) => file.users?.find((u) => u.roles?.length === 1 && u.roles[0] === role);
  const pick = (user: DemoUser | undefined, fallback: DemoUser): DemoUser => (user ? { email: user.email, password: user.password } : fallback);
  return { owner: pick(file.admin ?? byRole("OWNER"), FALLBACK.owner), moderator: pick(byRole("MODERATOR"), FALLBACK.moderator) };
}

/** Fill and submit the sign-in form on the current page (which must be the sign-in page). */
export async function submitSignIn(page: Page, user: DemoUser): Promise<void> {
  await expect(page.getByRole("heading", { name: "Sign in to the dashboard" })).toBeVisible();
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export const test = base.extend<{ users: ReturnType<typeof demoUsers>; signIn: (user: DemoUser) => Promise<void> }>({
  // (`provide` is Playwright's `use`, renamed so React's hook rules do not mistake it for a hook.)
  users: async ({}, provide) => {
    await provide(demoUsers());
  },
  signIn: async ({ page }, provide) => {
    await provide(async (user) => {
      await page.goto("/admin/sign-in");
      await submitSignIn(page, user);
      await expect(page).toHaveURL(/\/admin$/);
    });
  },
});

export { expect };
