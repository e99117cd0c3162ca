import { inject } from "vitest";
import { randomBase62 } from "../../src/lib/ids.ts";

/**
 * The Redis of the run: the environment's TEST_REDIS_URL, the server on 127.0.0.1:6379, or a redis-server started for
 * the run, as the global setup found or started it (helpers/global-setup.ts).
 */
export const TEST_REDIS_URL = inject("redisUrl");

/** A key prefix of its own, so that suites sharing one Redis never see each other's counts. */
export function uniqueRedisPrefix(): string {
  return `sightline-test:${randomBase62(10)}`;
}
