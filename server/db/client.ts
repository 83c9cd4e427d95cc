/**
 * Prisma Client over a driver adapter. `Db` is what domain functions take: the client itself or a
 * transaction client, so a function works alone and inside `db.$transaction(tx => …)`.
 */
import type { ITXClientDenyList } from "@prisma/client/runtime/client";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

import { PrismaClient } from "../generated/prisma/client";
import { openAdapter, type OpenAdapterOptions, type OpenedAdapter } from "./adapter";
import type { DatabaseConfig } from "./config";

/** Secrets never leave the data layer unless a query asks for them by name (`omit: { x: false }`). */
const OMIT = {
  adminUser: { passwordHash: true },
  member: { passwordHash: true },
  account: { jwtSecret: true },
  webhookEndpoint: { secret: true, previousSecret: true },
  oAuthClient: { secretHash: true },
} as const;

function createPrismaClient(adapter: SqlMigrationAwareDriverAdapterFactory) {
  return new PrismaClient({ adapter, omit: OMIT });
}

export type AppPrismaClient = ReturnType<typeof createPrismaClient>;
export type TransactionClient = Omit<AppPrismaClient, ITXClientDenyList>;
export type Db = AppPrismaClient | TransactionClient;

export type Database = {
  prisma: AppPrismaClient;
  config: DatabaseConfig;
  adapter: OpenedAdapter;
  close: () => Promise<void>;
};

export async function openDatabase(config: DatabaseConfig, options: OpenAdapterOptions = {}): Promise<Database> {
  const adapter = await openAdapter(config, options);
  const prisma = createPrismaClient(adapter.factory);
  return {
    prisma,
    config,
    adapter,
    close: async () => {
      await prisma.$disconnect();
      await adapter.close();
    },
  };
}
