import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { runCli } from "../helpers/processes.ts";

describe("configuration", () => {
  it("defaults to the embedded database under ./data and port 8080", () => {
    const config = loadConfig({}, "/srv/sightline");
    expect(config.database).toEqual({ dialect: "sqlite", path: "/srv/sightline/data/sightline.db", poolSize: 10 });
    expect(config.http).toMatchObject({ port: 8080, host: "127.0.0.1", publicUrl: "http://localhost:8080" });
    expect(config.logLevel).toBe("info");
  });

  it("reads sqlite: and postgres:// URLs", () => {
    expect(loadConfig({ DATABASE_URL: "sqlite:./other.db" }, "/srv").database).toMatchObject({
      dialect: "sqlite",
      path: "/srv/other.db",
    });
    expect(loadConfig({ DATABASE_URL: "sqlite:/var/lib/s.db" }, "/srv").database).toMatchObject({
      path: "/var/lib/s.db",
    });
    expect(loadConfig({ DATABASE_URL: "postgres://u@db:5432/s", DATABASE_POOL_SIZE: "4" }, "/").database).toEqual({
      dialect: "postgres",
      url: "postgres://u@db:5432/s",
      poolSize: 4,
    });
  });

  it("schedules the BI export only when given a folder, read from where Sightline starts", () => {
    expect(loadConfig({}, "/srv").biExport).toBeNull();
    expect(loadConfig({ SIGHTLINE_BI_EXPORT_DIR: "exports" }, "/srv").biExport).toEqual({
      dir: "/srv/exports",
      everyHours: 24,
    });
    expect(loadConfig({ SIGHTLINE_BI_EXPORT_DIR: "/var/bi", SIGHTLINE_BI_EXPORT_HOURS: "6" }, "/srv").biExport).toEqual(
      { dir: "/var/bi", everyHours: 6 },
    );
    expect(() => loadConfig({ SIGHTLINE_BI_EXPORT_DIR: "/var/bi", SIGHTLINE_BI_EXPORT_HOURS: "0" }, "/")).toThrow(
      /SIGHTLINE_BI_EXPORT_HOURS/,
    );
  });

  it("names every bad variable at once", () => {
    let error: unknown;
    try {
      loadConfig(
        { PORT: "eighty", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud", SIGHTLINE_PUBLIC_URL: "ftp://x" },
        "/",
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of ["PORT", "DATABASE_URL", "LOG_LEVEL", "SIGHTLINE_PUBLIC_URL"]) expect(problems).toContain(name);
  });

  it("stops start-up with a message naming the variable", async () => {
    const result = await runCli(["all"], { PORT: "99999" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("PORT must be between 0 and 65535");
    expect(result.stderr).not.toContain("    at "); // a message, not a stack trace
  });
});
