/**
 * Seeding as the CLI and the start script run it: refuse in production unless allowed, migrate,
 * seed, write DATA_DIR/demo-credentials.json. Area seeders are added to `seedAll`.
 */
import fs from "node:fs/promises";
import path from "node:path";

import type { Env } from "../../env.js";
import { openDatabase } from "../db/client";
import type { DatabaseConfig } from "../db/config";
import { applyMigrations } from "../db/migrate";
import { withTransaction } from "../db/transaction";
import { imageStorageFromEnv } from "../storage/image-storage";
import { demoCredentials, seedDemoPublisher, type DemoCredentials, type SeedReport } from "./demo";
import { seedDemoCatalogue } from "./demo-catalogue";
import { seedDemoContent } from "./demo-content";
import { seedDemoPaywall } from "./demo-paywall";
import { seedLargeAccess, type LargeAccessResult } from "./large-access";
import { seedLargeContent, type LargeContentResult } from "./large-content";
import { seedLargeEngagement, type LargeEngagementResult } from "./large-engagement";

export class SeedRefusedError extends Error {}

export function assertSeedAllowed(env: Pick<Env, "NODE_ENV" | "ALLOW_DEMO_SEED">): void {
  if (env.NODE_ENV === "production" && !env.ALLOW_DEMO_SEED) {
    throw new SeedRefusedError(
      "Refusing to seed demo data with NODE_ENV=production: the demo credentials are public. " +
        "Set ALLOW_DEMO_SEED=true to do it anyway, or create the first owner with `npm run admin:create`.",
    );
  }
}

export async function runSeed(
  env: Pick<Env, "NODE_ENV" | "ALLOW_DEMO_SEED" | "DATA_DIR" | "APP_URL" | "UPLOAD_DIR"> &
    Parameters<typeof imageStorageFromEnv>[0],
  config: DatabaseConfig,
  options: {
    stories?: number;
    engagement?: boolean;
    access?: boolean;
    onProgress?: (done: number, target: number) => void;
  } = {},
): Promise<{
  credentials: DemoCredentials;
  report: SeedReport;
  credentialsFile: string;
  large?: LargeContentResult;
  engagement?: LargeEngagementResult;
  access?: LargeAccessResult;
}> {
  assertSeedAllowed(env);
  const database = await openDatabase(config);
  try {
    await applyMigrations(database.adapter);
    const report: SeedReport = { created: [] };
    const { accountId, content } = await withTransaction(
      database.prisma,
      async (tx) => {
        const id = await seedDemoPublisher(tx, report);
        await seedDemoCatalogue(tx, { accountId: id }, report);
        const content = await seedDemoContent(
          tx,
          { accountId: id, appUrl: env.APP_URL, uploadDir: env.UPLOAD_DIR, images: imageStorageFromEnv(env) },
          report,
        );
        await seedDemoPaywall(tx, { accountId: id }, report);
        return { accountId: id, content };
      },
      { timeout: 120_000 },
    );
    // `--stories N`: generated stories for benchmarks, in batches outside the transaction.
    const large = options.stories
      ? await seedLargeContent(database.prisma, { accountId, target: options.stories, onProgress: options.onProgress })
      : undefined;
    // `--engagement`: readers, pages, comments and reactions for the engagement benchmarks.
    const engagement = options.engagement
      ? await seedLargeEngagement(database.prisma, { accountId, appUrl: env.APP_URL })
      : undefined;
    // `--access`: subscription stories, subscribers and meter history for the access benchmarks.
    const access = options.access ? await seedLargeAccess(database.prisma, { accountId }) : undefined;
    const credentials: DemoCredentials = {
      ...demoCredentials(accountId, env.APP_URL),
      content: {
        rss: `${env.APP_URL}/stories.rss`,
        instantArticles: `${env.APP_URL}/api/instant-articles.rss`,
        ampStory: `${env.APP_URL}/api/v1/amp/story?slug=${encodeURIComponent(content.storySlugs[0]!)}`,
        homeCollection: `${env.APP_URL}/api/v1/collections/home`,
        publishedStories: content.storySlugs.length + 1,
        draftSlugs: content.draftSlugs,
      },
    };
    await fs.mkdir(env.DATA_DIR, { recursive: true });
    const credentialsFile = path.join(env.DATA_DIR, "demo-credentials.json");
    await fs.writeFile(credentialsFile, JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 });
    if (engagement) {
      // What the benchmark needs to call the engagement API (the page URLs, the writers' JWT ids).
      await fs.writeFile(path.join(env.DATA_DIR, "bench-engagement.json"), JSON.stringify(engagement, null, 2) + "\n", {
        mode: 0o600,
      });
    }
    if (access) {
      await fs.writeFile(path.join(env.DATA_DIR, "bench-access.json"), JSON.stringify(access) + "\n", { mode: 0o600 });
    }
    return { credentials, report, credentialsFile, large, engagement, access };
  } finally {
    await database.close();
  }
}

export function formatCredentials(credentials: DemoCredentials): string {
  const lines = [
    `  Account id        ${credentials.accountId}`,
    `  Account key       ${credentials.accountKey}   (query ?key= on client APIs)`,
    `  X-SUBAUTH key     ${credentials.subauthKey}   (server APIs)`,
    `  JWT shared key    ${credentials.jwtSecret}   (HS256, third-party login)`,
    ...credentials.users.map((u) => `  ${u.roles.join(",").toLowerCase().padEnd(17)} ${u.email} / ${u.password}`),
  ];
  return lines.join("\n");
}
