import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/slow/**", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
