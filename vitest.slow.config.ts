import { defineConfig } from "vitest/config";

// `npm run test:slow`: what takes minutes or needs the registry (whole real specs, consumer installs,
// the seeded crash sweep). CI runs it after `npm test`.
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts"],
    globalSetup: ["test/helpers/temp-root.ts"],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
