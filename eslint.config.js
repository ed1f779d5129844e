// Lint for every workspace. `npm run lint` runs it with --max-warnings=0.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

// Dependencies point one way (README, "Architecture map"): pwa → clientdb → shared-schema. ESLint
// keeps the edges the type checker cannot see. A file gets one no-restricted-imports setting (a
// later block replaces an earlier one's options, it does not merge them): add restrictions here.
const ANY_FILE = "*.{ts,tsx,js,mjs,cjs}";

// shared-schema imports nothing of ours: no @patrimonio/* package and no relative path that climbs
// out of shared-schema/. A relative import may climb as many levels as the file is deep inside it,
// so there is one block per depth (a glob `*` never crosses a `/`).
const sharedSchemaDepths = [0, 1, 2, 3, 4].map((depth) => ({
  files: [`shared-schema/${"*/".repeat(depth)}${ANY_FILE}`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@patrimonio/*"], message: "shared-schema imports nothing of ours (README: pwa → clientdb → shared-schema)." },
          {
            regex: `^(\\.\\./){${depth + 1},}`,
            message: "shared-schema imports nothing outside shared-schema/ (README: pwa → clientdb → shared-schema).",
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/*.generated.*",
      "shared-schema/jsonschema/**",
      "test-results/**",
      "playwright-report/**",
      "bench/**",
      "**/dev-dist/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // Playwright fixtures call a parameter named `use`, which is not React's hook.
    files: ["pwa/e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The PWA reads and writes records through clientdb's commands and hooks, never Dexie itself.
    files: [`pwa/**/${ANY_FILE}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "dexie", message: "pwa/ uses @patrimonio/clientdb, never Dexie directly." },
            { name: "dexie-react-hooks", message: "pwa/ uses clientdb's hooks (@patrimonio/clientdb), never dexie-react-hooks." },
          ],
          patterns: [{ group: ["dexie/*", "dexie-react-hooks/*"], message: "pwa/ uses @patrimonio/clientdb, never Dexie directly." }],
        },
      ],
    },
  },
  {
    // clientdb is below the PWA: it may not import anything from pwa/.
    files: [`clientdb/**/${ANY_FILE}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@patrimonio/pwa", "@patrimonio/pwa/*"], message: "clientdb may not import the PWA (README: pwa → clientdb → shared-schema)." },
            { regex: "^(\\.\\./)+pwa(/|$)", message: "clientdb may not import the PWA (README: pwa → clientdb → shared-schema)." },
          ],
        },
      ],
    },
  },
  {
    // The live hooks and what they import load with a signed-in page's first paint, before the
    // device database's engine; Dexie (35 KB, the heaviest script of the app) must not come with
    // them (clientdb/src/rows.ts). Types only.
    files: ["clientdb/src/{context,internal,live,rows,records,merge,hlc}.ts", "clientdb/src/features/{hooks,liveList}.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "dexie", allowTypeImports: true, message: "This module loads before Dexie (clientdb/src/rows.ts): reach Dexie through internals(handle).live." },
            { name: "dexie-react-hooks", message: "This module loads before Dexie (clientdb/src/rows.ts): use ./live's useLive." },
            { name: "../clientdb", allowTypeImports: true, message: "clientdb.ts imports Dexie: take the reads from ./rows." },
            { name: "./clientdb", allowTypeImports: true, message: "clientdb.ts imports Dexie: take the reads from ./rows." },
            { name: "./db", allowTypeImports: true, message: "db.ts imports Dexie." },
            { name: "../db", allowTypeImports: true, message: "db.ts imports Dexie." },
          ],
          patterns: [
            { regex: "^(\\.\\./)+pwa(/|$)", message: "clientdb may not import the PWA (README: pwa → clientdb → shared-schema)." },
          ],
        },
      ],
    },
  },
  ...sharedSchemaDepths,
);
