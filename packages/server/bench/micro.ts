import pino from "pino";
import { RateLimits } from "../src/services/rate-limits/rate-limits.ts";
import { RequestMeter } from "../src/services/usage/request-meter.ts";

export interface MicroResult {
  name: string;
  microsPerOp: number;
}

async function time(name: string, ops: number, op: (i: number) => Promise<void> | void): Promise<MicroResult> {
  for (let i = 0; i < Math.min(ops, 2_000); i++) await op(i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) await op(i);
  return { name, microsPerOp: Number(process.hrtime.bigint() - start) / ops / 1_000 };
}

/**
 * What rate limiting and metering add to one request, measured directly: the HTTP rows differ by
 * less than run-to-run noise on a 2-core machine, so they cannot show a few microseconds.
 */
export async function microBenchmarks(redisUrl: string | null): Promise<MicroResult[]> {
  const logger = pino({ level: "silent" });
  const results: MicroResult[] = [];
  const memory = new RateLimits(logger, { keyPrefix: `bench:${Date.now()}` });
  results.push(
    await time("rate-limit check, memory store", 100_000, async (i) => {
      await memory.hit({ workspaceId: `ws_${i % 100}`, limit: 1_000_000_000 });
    }),
  );
  await memory.close();
  const meter = new RequestMeter();
  results.push(
    await time("request metering, record one request", 100_000, (i) => {
      meter.record(`ws_${i % 100}`, "2026-11-21T00:00:00.000Z", "GET /v1/projects");
    }),
  );
  if (redisUrl !== null) {
    const redis = new RateLimits(logger, { redisUrl, keyPrefix: `bench:${Date.now()}` });
    await redis.ready();
    results.push(
      await time("rate-limit check, Redis (one round trip, sequential)", 5_000, async (i) => {
        await redis.hit({ workspaceId: `ws_${i % 100}`, limit: 1_000_000_000 });
      }),
    );
    await redis.close();
  }
  return results;
}
