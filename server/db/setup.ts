/** Open, migrate, close: used by the start script, `npm run db:migrate` and test setup. */
import { openAdapter } from "./adapter";
import type { DatabaseConfig } from "./config";
import { applyMigrations } from "./migrate";

export async function migrateDatabase(config: DatabaseConfig): Promise<string[]> {
  const adapter = await openAdapter(config);
  try {
    return await applyMigrations(adapter);
  } finally {
    await adapter.close();
  }
}
