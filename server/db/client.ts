/**
 * Prisma Client over a driver adapter. `Db` is what domain functions take: the client itself or a
 * transaction client, so a function works alone and inside `db.$transaction(tx => …)`.
 */
import { PrismaClient, type Prisma } from "../generated/prisma/client";
import { openAdapter, type OpenAdapterOptions, type OpenedAdapter } from "./adapter";
import type { DatabaseConfig } from "./config";

export type Db = PrismaClient | Prisma.TransactionClient;

export type Database = {
  prisma: PrismaClient;
  config: DatabaseConfig;
  adapter: OpenedAdapter;
  close: () => Promise<void>;
};

export async function openDatabase(config: DatabaseConfig, options: OpenAdapterOptions = {}): Promise<Database> {
  const adapter = await openAdapter(config, options);
  const prisma = new PrismaClient({
    adapter: adapter.factory,
    // Secrets never leave the data layer unless a query asks for them by name.
    omit: { adminUser: { passwordHash: true }, account: { jwtSecret: true } },
  });
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
