import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "../../src/config/config.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { REPO_ROOT, type ServerProcess, startServerProcess } from "../helpers/processes.ts";

const run = promisify(execFile);

/** The README's first-call example, exactly as written, against a real server process. */
function readmeExample(): string {
  const readme = readFileSync(resolve(REPO_ROOT, "README.md"), "utf8");
  const block = /<!-- readme-example:start -->\n```bash\n([\s\S]*?)```\n<!-- readme-example:end -->/.exec(readme);
  if (block?.[1] === undefined) throw new Error("README.md has no readme-example block");
  return block[1];
}

describe("README", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServerProcess({ DATABASE_URL: db.url });
  });
  afterAll(async () => {
    server.child.kill("SIGTERM");
    await server.exited;
    await db.drop();
  });

  it("shows the two commands first", () => {
    const readme = readFileSync(resolve(REPO_ROOT, "README.md"), "utf8");
    const quickStart = readme.indexOf("## Quick start");
    expect(quickStart).toBeGreaterThan(0);
    expect(readme.indexOf("npm install", quickStart)).toBeLessThan(readme.indexOf("npm start", quickStart));
    expect(readme.indexOf("npm test", quickStart)).toBeLessThan(readme.indexOf("## Your first API call"));
  });

  it("documents every configuration variable with its default", () => {
    const readme = readFileSync(resolve(REPO_ROOT, "README.md"), "utf8");
    const rows = readme
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) =>
        line
          .split("|")
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    for (const variable of CONFIG_VARIABLES) {
      expect(rows).toContainEqual([`\`${variable.name}\``, `\`${variable.default}\``, variable.description]);
    }
  });

  it("its first-call example works as written (only the port differs)", async () => {
    const port = new URL(server.url).port;
    const script = `set -euo pipefail\n${readmeExample().replaceAll("localhost:8080", `127.0.0.1:${port}`)}`;
    const { stdout } = await run("bash", ["-c", script], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: "" },
    });
    const [analysis, results] = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(analysis).toMatchObject({
      object: "analysis",
      status: "completed",
      engines: ["sandbox"],
      progress: { total: 6, succeeded: 6 },
    });
    expect(analysis.summary.overall.competitors.map((c: { name: string }) => c.name)).toEqual(["Globex"]);
    expect(results.data).toHaveLength(1);
    expect(results.data[0]).toMatchObject({ object: "result", analysis_id: analysis.id, status: "succeeded" });
  });
});
