import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    // Finds or starts the PostgreSQL, Redis and Chromium of the run, once, and prints which ones it uses.
    globalSetup: ["packages/server/test/helpers/global-setup.ts"],
    pool: "forks",
    // Two files at a time even on two cores: most files wait on processes, servers and the network
    // more than they compute (one worker, the default here, took 316 s; two, 195 s).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites print their measurements (accuracy, counts); keep them visible.
    silent: false,
  },
});
