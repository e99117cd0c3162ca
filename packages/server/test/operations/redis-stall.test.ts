import { type ChildProcess, spawn } from "node:child_process";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisLink, RedisWindowCounter } from "../../src/services/rate-limits/redis-counter.ts";
import { freePort } from "../helpers/processes.ts";

/**
 * A Redis that stops answering for a moment (its process stopped, as an overloaded host or a
 * stalled event loop on our side would look): the command times out and the count falls back to the
 * process. It must go on from the shared count this process last saw, not start again from zero:
 * otherwise a stall in the middle of a password-guessing run would grant a fresh allowance.
 */
describe("window counts when a Redis command times out", () => {
  let redis: ChildProcess;
  let url = "";

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      let output = "";
      redis.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
      redis.once("error", reject);
      redis.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
    url = `redis://127.0.0.1:${port}`;
  });
  afterAll(() => {
    redis?.kill("SIGCONT");
    redis?.kill("SIGKILL");
  });

  it("go on from the last shared count, and back in Redis once it answers", async () => {
    const link = new RedisLink(url, pino({ level: "silent" }));
    await link.ready();
    const counter = new RedisWindowCounter(link, 60, "stall");
    try {
      for (let i = 1; i <= 5; i++) expect((await counter.hit("guesses")).count).toBe(i);
      redis.kill("SIGSTOP");
      let during: number;
      try {
        during = (await counter.hit("guesses")).count;
        expect(link.degraded).toBe(true);
      } finally {
        redis.kill("SIGCONT");
      }
      expect(during).toBe(6);
      // Redis answers again: the count is the shared one (which the timed-out hit may have reached too).
      const after = await counter.hit("guesses");
      expect(after.count).toBeGreaterThanOrEqual(6);
      expect(link.degraded).toBe(false);
    } finally {
      await link.close();
    }
  });
});
