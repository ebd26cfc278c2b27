import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/slow/**", "**/node_modules/**"],
    setupFiles: ["test/helpers/format-once.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
