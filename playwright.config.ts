/**
 * Browser and system tests (npm run test:e2e) against the built app, served the way users run it:
 * `npx tsx scripts/start.ts` migrates, seeds the demo publisher, builds when the sources changed,
 * and serves on port 3210 (E2E_PORT) with its own embedded database in .data-e2e.
 *
 * A second webServer is the fake Stripe (e2e/fake-stripe-server.ts) that the app's
 * STRIPE_API_BASE_URL and STRIPE_JS_URL point at.
 *
 * The data folder is emptied in the webServer command itself, right before the server starts:
 * Playwright starts the webServer before globalSetup runs, so a globalSetup would pull the
 * database out from under a running server. A server that is already running (reused outside CI)
 * keeps its data.
 *
 * Chromium is Debian's headless shell (/usr/bin/chromium-headless-shell; `apt-get install -y
 * chromium-headless-shell`), the build Playwright itself runs headless tests in: its own download
 * cannot work offline. CHROMIUM_PATH may name another Chromium (the full browser runs headless too,
 * at about a third more CPU).
 */
import fs from "node:fs";

import { defineConfig, devices } from "@playwright/test";

import { FAKE_STRIPE_URL } from "./e2e/fake-stripe-config";

/** E2E_PORT lets two checkouts run their browser tests side by side; system specs use the ports after it. */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const DATA_DIR = ".data-e2e";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

/**
 * Playwright starts Chromium with --disable-dev-shm-usage, for containers whose /dev/shm is a
 * few megabytes: Chromium then keeps its shared memory in files under /tmp. Where /dev/shm has
 * room (a gibibyte free), Chromium keeps it there, in memory, as it does outside Playwright: on a
 * disk-backed /tmp each of its buffers was a file created and deleted on disk.
 */
function sharedMemoryHasRoom(): boolean {
  try {
    const { bavail, bsize } = fs.statfsSync("/dev/shm");
    return bavail * bsize >= 1024 ** 3;
  } catch {
    return false;
  }
}

if (!fs.existsSync(CHROMIUM)) {
  throw new Error(
    `Chromium is not at ${CHROMIUM}: install it with \`apt-get install -y chromium-headless-shell\` (or set CHROMIUM_PATH).`,
  );
}

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  forbidOnly: !!process.env.CI,
  retries: 0,
  // One worker: npm test runs the other suites beside the browser tests on the same two cores, and
  // with two workers those starved until their own time limits failed. Alone on a machine,
  // E2E_WORKERS=2 is faster (a spec mostly waits on the app and the browser).
  workers: Number(process.env.E2E_WORKERS ?? 1),
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // scripts/test-all.ts names a JSON report file to count the results.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "on-first-retry",
    navigationTimeout: 30_000,
    actionTimeout: 15_000,
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: CHROMIUM,
          ignoreDefaultArgs: sharedMemoryHasRoom() ? ["--disable-dev-shm-usage"] : [],
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: `node -e "require('node:fs').rmSync('${DATA_DIR}', { recursive: true, force: true })" && npx tsx scripts/start.ts`,
      url: `http://localhost:${PORT}/api/health`,
      env: {
        PORT: String(PORT),
        DATA_DIR,
        // Always the embedded database in DATA_DIR, never whatever DATABASE_URL the shell carries:
        // the start script seeds demo users with public passwords.
        DATABASE_URL: "",
        APP_URL: `http://localhost:${PORT}`,
        // Webhook specs receive deliveries on a local port (127.0.0.1), which is refused otherwise.
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
        // Stripe is the fake below: its API for the adapter, its Stripe.js for the reader's browser.
        STRIPE_API_BASE_URL: FAKE_STRIPE_URL,
        STRIPE_JS_URL: `${FAKE_STRIPE_URL}/v3/`,
      },
      reuseExistingServer: !process.env.CI,
      // The first start builds the app: a few minutes on 2 cores.
      timeout: 6 * 60_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      // The fake Stripe (server/testing/fake-stripe.ts) at a fixed address: a webServer, since
      // Playwright starts those before globalSetup; the app reaches it only when a spec pays.
      command: "npx tsx e2e/fake-stripe-server.ts",
      url: `${FAKE_STRIPE_URL}/v3/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
