import { randomBase62 } from "../../src/lib/ids.ts";

/** CI has Redis on 127.0.0.1:6379; TEST_REDIS_URL points elsewhere. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix of its own, so that suites sharing one Redis never see each other's counts. */
export function uniqueRedisPrefix(): string {
  return `sightline-test:${randomBase62(10)}`;
}
