import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { createAgency } from "../../src/services/agencies/agencies.ts";
import { createClient } from "../../src/services/agencies/clients.ts";
import { csvRow } from "../../src/services/bi/csv.ts";
import { exportAgencyBi, exportBi } from "../../src/services/bi/export.ts";
import { BI_VIEW_NAMES, BI_VIEWS } from "../../src/services/bi/views.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { describeEachDialect } from "../helpers/harness.ts";
import { readCsv } from "./csv.ts";
import { appCounts, type Seeded, seedBrand, seedWorkspace } from "./seed.ts";

it("quotes CSV fields as RFC 4180 says", () => {
  expect(csvRow(["plain", 'say "hi"', "a,b", "two\nlines", null, 0.5, true, -1])).toBe(
    'plain,"say ""hi""","a,b","two\nlines",,0.5,true,-1\r\n',
  );
  const dir = mkdtempSync(join(tmpdir(), "sightline-csv-"));
  writeFileSync(join(dir, "x.csv"), csvRow(["h1", "h2"]) + csvRow(['a "b"', "c,\r\nd"]));
  expect(readCsv(join(dir, "x.csv"))).toEqual({ header: ["h1", "h2"], rows: [['a "b"', "c,\r\nd"]] });
});

describeEachDialect("sightline bi export: the BI views as CSV files (issue 28)", (h) => {
  let a: Seeded;
  let b: Seeded;
  beforeAll(async () => {
    await h.startWorker();
    a = await seedWorkspace(h, "Acme");
    b = await seedWorkspace(h, "Bravo");
  });

  it("writes one file per view, with the views' columns and the workspace's rows only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sightline-bi-"));
    const result = await exportBi(h.deps, { workspaceId: a.tenant.workspace.id, dir });
    expect(readdirSync(dir).sort()).toEqual(BI_VIEW_NAMES.map((v) => `${v}.csv`).sort());
    const counts = await appCounts(h, a.tenant.workspace.id);
    for (const view of BI_VIEW_NAMES) {
      const csv = readCsv(join(dir, `${view}.csv`));
      expect(csv.header, view).toEqual([...BI_VIEWS[view]]);
      expect(result.files.find((f) => f.view === view)?.rows, view).toBe(csv.rows.length);
      const workspace = csv.header.indexOf("workspace_id");
      expect(new Set(csv.rows.map((r) => r[workspace])), view).toEqual(new Set([a.tenant.workspace.id]));
      if (view !== "daily_metrics") expect(csv.rows.length, view).toBe(counts[view]);
      expect(csv.rows.flat().join("\n")).not.toContain(b.projectId);
    }
    const daily = readCsv(join(dir, "daily_metrics.csv"));
    const answers = daily.header.indexOf("answers");
    expect(daily.rows.reduce((n, r) => n + Number(r[answers]), 0)).toBe(counts.answers);
    const visibility = daily.header.indexOf("visibility");
    for (const row of daily.rows) expect(Number(row[visibility])).toBeGreaterThanOrEqual(0);
    const sentiment = readCsv(join(dir, "answers.csv"));
    const column = sentiment.header.indexOf("sentiment");
    for (const row of sentiment.rows) {
      if (row[column] !== "") expect(Number(row[column])).toBeGreaterThanOrEqual(0);
    }
  });

  it("exports an agency's clients, one sub-folder each, and not its pitches", async () => {
    const agency = (await createAgency(h.deps, { name: "Export Agency" })).id;
    const client = await createClient(h.deps, { id: agency, name: "x", role: "admin" }, { name: "Client" });
    await seedBrand(h, { workspaceId: client.id, key: await h.key(client.id) }, "Client");
    const pitch = await createWorkspace(h.deps, {
      name: "Prospect",
      plan: "agency",
      agency: { agencyId: agency, kind: "pitch", billingAnchor: "2026-11-21" },
    });
    await seedBrand(h, { workspaceId: pitch.id, key: await h.key(pitch.id) }, "Prospect");
    const dir = mkdtempSync(join(tmpdir(), "sightline-bi-agency-"));
    const result = await exportAgencyBi(h.deps, { agencyId: agency, dir });
    expect(readdirSync(dir)).toEqual([client.id]);
    expect(result.clients.map((c) => c.workspace_id)).toEqual([client.id]);
    const answers = readCsv(join(dir, client.id, "answers.csv"));
    expect(answers.rows.length).toBe((await appCounts(h, client.id)).answers);
    expect(new Set(answers.rows.map((r) => r[answers.header.indexOf("workspace_id")]))).toEqual(new Set([client.id]));
    await expect(exportAgencyBi(h.deps, { agencyId: "agy_nope", dir })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("is written by the worker on its schedule: every workspace but pitches, a folder each", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sightline-bi-scheduled-"));
    const pitch = await createWorkspace(h.deps, {
      name: "Scheduled prospect",
      plan: "agency",
      agency: {
        agencyId: (await createAgency(h.deps, { name: "Scheduled Agency" })).id,
        kind: "pitch",
        billingAnchor: "2026-11-21",
      },
    });
    const worker = await h.startWorker(undefined, {
      scheduler: true,
      schedulerIntervalMs: 50,
      biExport: { dir, everyHours: 24 },
    });
    try {
      const deadline = Date.now() + 20_000;
      // A folder is made before its files are written (each renamed into place when complete):
      // done when every view of both is there.
      const done = () =>
        [a, b].every(
          (s) =>
            readdirSync(dir).includes(s.tenant.workspace.id) &&
            readdirSync(join(dir, s.tenant.workspace.id)).filter((f) => f.endsWith(".csv")).length >=
              BI_VIEW_NAMES.length,
        );
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done()).toBe(true);
    } finally {
      await worker.stop(1_000);
    }
    expect(readdirSync(dir)).not.toContain(pitch.id);
    for (const seeded of [a, b]) {
      const answers = readCsv(join(dir, seeded.tenant.workspace.id, "answers.csv"));
      expect(answers.rows.length).toBe((await appCounts(h, seeded.tenant.workspace.id)).answers);
    }
  });

  it("runs from the command line, and on SQLite refuses a BI role with what to do instead", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sightline-bi-cli-"));
    const env = { DATABASE_URL: h.database.url };
    const run = await runCliInProcess(
      ["bi", "export", "--workspace", b.tenant.workspace.id, "--dir", dir, "--json"],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const files = JSON.parse(run.stdout).files as { view: string; rows: number }[];
    expect(files.map((f) => f.view)).toEqual(BI_VIEW_NAMES);
    expect(files.find((f) => f.view === "answers")?.rows).toBe((await appCounts(h, b.tenant.workspace.id)).answers);
    const missing = await runCliInProcess(["bi", "export", "--workspace", "ws_nope", "--dir", dir], env);
    expect(missing.code).toBe(1);
    if (h.dialect === "sqlite") {
      const grant = await runCliInProcess(["bi", "grant", "--workspace", a.tenant.workspace.id], env);
      expect(grant.code).toBe(1);
      expect(grant.stderr).toContain("BI roles need PostgreSQL");
      expect(grant.stderr).toContain("sightline bi export");
    }
  });
});
