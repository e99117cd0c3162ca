import autocannon from "autocannon";

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/** Runs autocannon against one URL on 127.0.0.1: a warm-up, then the measured run. */
export async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  options: LoadOptions,
): Promise<Measurement> {
  const run = (duration: number) => autocannon({ url, headers, connections: options.connections, duration });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const result = await run(options.durationSeconds);
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function printTable(rows: Measurement[], baseline: Measurement): void {
  const line = (cells: string[]) =>
    console.log(cells.map((c, i) => (i === 0 ? c.padEnd(44) : c.padStart(11))).join(""));
  line(["target", "req/s", "p50 ms", "p99 ms", "vs bare", "non-2xx"]);
  for (const row of rows) {
    line([
      row.name,
      Math.round(row.requestsPerSecond).toLocaleString("en-US"),
      row.p50.toFixed(1),
      row.p99.toFixed(1),
      (row.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
      String(row.non2xx + row.errors),
    ]);
  }
}
