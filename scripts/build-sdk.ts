/**
 * npm run sdk:build: bundle the AccessType browser SDK (sdk/accesstype/) into
 * sdk/accesstype/bundle.generated.ts and print its size.
 */
import fs from "node:fs";

import { bundleSdk, GENERATED_FILE, generatedSource, gzipSize, SDK_GZIP_BUDGET_BYTES } from "./lib/sdk-bundle";

const bundle = await bundleSdk();
fs.writeFileSync(GENERATED_FILE, generatedSource(bundle));
const gz = gzipSize(bundle.js);
console.log(
  `[sdk] accesstype.js: ${bundle.js.length} bytes, ${gz} bytes gzipped (budget ${SDK_GZIP_BUDGET_BYTES}); wrote ${GENERATED_FILE}`,
);
if (gz > SDK_GZIP_BUDGET_BYTES) {
  console.error("[sdk] over budget");
  process.exit(1);
}
