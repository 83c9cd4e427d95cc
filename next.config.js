// @ts-check
import { getEnv } from "./env.js";

// Validate the environment now, so a bad value fails `next build` and `next start` with a line
// naming the variable (env.js).
getEnv();

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The Node server compresses (scripts/serve.mjs, server/http/compression.js); Vercel's platform does there.
  compress: false,
  // Loaded from node_modules at run time, not bundled: they carry WebAssembly and native files.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/client",
    "@prisma/migrate",
    "@prisma/internals",
    "@prisma/schema-engine-wasm",
    "pg",
    "ioredis",
    // Reads its standard fonts (AFM files) from its own directory at run time.
    "pdfkit",
    // pdfkit's font engine, read by server/pdf/fonts.ts for the fonts' character maps: one copy with pdfkit's.
    "fontkit",
  ],
  // Invoices and credit notes embed Noto fonts read from node_modules at run time (server/pdf/fonts.ts):
  // traced into the document routes' output, regular and bold only.
  outputFileTracingIncludes: {
    "/api/**/invoices/*": ["./node_modules/@expo-google-fonts/noto-sans*/{400Regular,700Bold}/*.ttf"],
    "/api/**/credit-notes/*": ["./node_modules/@expo-google-fonts/noto-sans*/{400Regular,700Bold}/*.ttf"],
  },
  // npm test skips it (NEXT_BUILD_SKIP_TYPECHECK=1) only because its own type check step runs the same check.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === "1" },
  // forbidden() renders app/forbidden.tsx with a real 403 status for role checks.
  experimental: { authInterrupts: true },
};

export default nextConfig;
