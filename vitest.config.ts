import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/slow/**", "**/node_modules/**"],
    globalSetup: ["test/helpers/temp-root.ts"],
    setupFiles: ["test/helpers/format-once.ts", "test/helpers/seeded-properties.ts"],
    // Two workers keep both cores busy (vitest's default leaves one idle on two). Each worker runs its
    // files in one module graph: loading TypeScript, prettier and the generator once per worker rather
    // than once per file halves the suite's CPU time. So a test that changes shared state (process.env,
    // timers, spies, the id book of generated/support) restores it before it ends.
    maxWorkers: 2,
    isolate: false,
    // Hang detectors only: a busy two-core CI machine may run a test several times slower than a desk.
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
