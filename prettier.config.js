// Prettier: 120 columns, imports sorted (node builtins, packages, "@/…", then relative), Tailwind
// classes in Tailwind's order. `npm run lint` checks it; `npm run format` rewrites.
/** @type {import("prettier").Config} */
const config = {
  printWidth: 120,
  proseWrap: "preserve",
  plugins: ["@ianvs/prettier-plugin-sort-imports", "prettier-plugin-tailwindcss"],
  importOrder: ["<BUILTIN_MODULES>", "", "<THIRD_PARTY_MODULES>", "", "^@/(.*)$", "", "^[.]"],
  importOrderTypeScriptVersion: "5.9.3",
  tailwindStylesheet: "./app/globals.css",
};

export default config;
