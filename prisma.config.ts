// Prisma CLI configuration. The app itself connects through driver adapters (server/db), and
// migrations run through the WebAssembly engine (npm run db:migrate); where Prisma's native engine
// is available, `prisma migrate deploy` reads the same folder with DATABASE_URL set here.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
