import type { Selectable } from "kysely";
import { beforeAll, expect, it } from "vitest";
import type { AnalysesTable } from "../../src/db/tables.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import { inTransaction, type ServiceContext } from "../../src/services/context.ts";
import { type CompiledProject, compileProject } from "../../src/services/measurement/measure.ts";
import { measuredProject } from "../../src/services/projects/measured.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { measureResult, storedAnswerInput } from "../../src/services/results/measure.ts";
import {
  insertResults,
  markCounted,
  type NewResult,
  removeAnswerTexts,
  replaceMeasures,
} from "../../src/services/results/store.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect } from "../helpers/harness.ts";

const PROMPT = "best project management tool?";
const TEXT = "1. Acme is great for teams.\n2. Globex is expensive. See https://acme.com/pricing";

describeEachDialect("the results store: how answers are stored, re-measured, counted and pruned", (h) => {
  let ctx: ServiceContext;
  let compiled: CompiledProject;
  let projectId: string;

  beforeAll(async () => {
    const t = await h.tenant("agency");
    ctx = await workspaceContext(h.deps, t.workspace.id);
    const project = await createProject(ctx, {
      name: "Acme",
      primary_domain: "acme.com",
      competitors: [{ name: "Globex", domains: ["globex.com"] }],
      prompts: [PROMPT],
      engines: ["sandbox"],
    });
    projectId = project.id;
    compiled = compileProject(measuredProject(project));
  });

  /** A fresh analysis (no worker runs: only what the test stores is stored). */
  async function analysis(): Promise<Selectable<AnalysesTable>> {
    const { id } = await createAnalysis(ctx, { project_id: projectId, engines: ["sandbox"], prompts: [PROMPT] });
    return h.deps.db.selectFrom("analyses").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  async function answers(row: Selectable<AnalysesTable>): Promise<NewResult[]> {
    const answer = {
      text: TEXT,
      model: "sandbox-1",
      citations: [],
      searches: ["project tools"],
      usage: { inputTokens: 12, outputTokens: 34, searchCalls: 1, costUsd: null },
    };
    const measure = await measureResult(ctx, compiled, { ...answer, prompt: PROMPT });
    const at = h.clock.now().toISOString();
    const base = {
      analysis: row,
      engine: "sandbox",
      prompt: PROMPT,
      promptIndex: 0,
      attempts: 1,
      latencyMs: 5,
      createdAt: at,
    };
    return [
      { ...base, sample: 1, outcome: { ok: true, answer, measure }, costMicros: 250 },
      {
        ...base,
        sample: 2,
        outcome: {
          ok: false,
          error: { code: "ENGINE_FAILURE", message: "vendor down", retryable: false, status: 503, retryAfter: null },
        },
        costMicros: null,
      },
    ];
  }

  const stored = (analysisId: string) =>
    h.deps.db.selectFrom("results").selectAll().where("analysis_id", "=", analysisId).orderBy("sample").execute();

  it("stores an answer and a failure in one statement, every column from one mapping, and never twice", async () => {
    const row = await analysis();
    const group = await answers(row);
    const counted = await inTransaction(ctx, (tx) => insertResults(tx, group));
    const [ok, failed] = group;
    if (ok?.outcome.ok !== true) throw new Error("the first answer succeeded");
    const measure = ok.outcome.measure;
    // Only the succeeded answer is for the rollups.
    expect(counted).toEqual([
      {
        workspace_id: row.workspace_id,
        project_id: row.project_id,
        engine: "sandbox",
        prompt: PROMPT,
        created_at: ok.createdAt,
        measure,
      },
    ]);

    const [answer, failure] = await stored(row.id);
    expect(answer).toMatchObject({
      status: "succeeded",
      model: "sandbox-1",
      error: null,
      text: TEXT,
      position: measure.brand.position,
      sentiment: measure.brand.sentiment,
      citation_count: measure.citations.length,
      brand_citation_count: measure.citations.filter((c) => c.brand).length,
      score: measure.score,
      score_version: measure.score_version,
      attempts: 1,
      latency_ms: 5,
    });
    // JSON columns are compared as values (PostgreSQL keeps them as jsonb).
    expect(JSON.parse(answer?.measure ?? "null")).toEqual(measure);
    expect(JSON.parse(answer?.searches ?? "null")).toEqual(["project tools"]);
    expect(Boolean(answer?.mentioned)).toBe(measure.brand.mentioned);
    expect(Boolean(answer?.brand_cited)).toBe(measure.brand_cited);
    expect(Boolean(answer?.rolled_up)).toBe(true);
    expect(
      [answer?.input_tokens, answer?.output_tokens, answer?.search_calls, answer?.cost_micros].map(Number),
    ).toEqual([12, 34, 1, 250]);
    expect(failure).toMatchObject({
      status: "failed",
      sample: failed?.sample,
      model: null,
      text: null,
      measure: null,
      position: null,
      sentiment: null,
      citation_count: 0,
      brand_citation_count: 0,
      score: null,
      score_version: row.score_version,
      input_tokens: null,
      output_tokens: null,
      search_calls: null,
      cost_micros: null,
    });
    expect(JSON.parse(failure?.error ?? "null")).toEqual({ code: "ENGINE_FAILURE", message: "vendor down" });
    expect(JSON.parse(failure?.searches ?? "null")).toEqual([]);
    expect(Boolean(failure?.mentioned)).toBe(false);
    expect(Boolean(failure?.brand_cited)).toBe(false);

    // The same answers again (a retried job): nothing stored, nothing to count.
    const again = await answers(row);
    expect(await inTransaction(ctx, (tx) => insertResults(tx, again))).toEqual([]);
    expect(await stored(row.id)).toHaveLength(2);
  });

  it("re-measures from what a stored answer was measured from, and rewrites only changed measures", async () => {
    const row = await analysis();
    await insertResults(ctx, await answers(row));
    const [answer, failure] = await stored(row.id);
    if (answer === undefined || failure === undefined) throw new Error("two answers stored");
    const old = JSON.parse(answer.measure ?? "null");
    const input = storedAnswerInput({ ...answer, measure: old });
    expect(input).toEqual({ text: TEXT, citations: [], prompt: PROMPT });
    expect(storedAnswerInput({ ...failure, measure: null })).toBeNull();
    if (input === null) return;

    // Measured again the same: nothing is written.
    const same = await measureResult(ctx, compiled, input);
    expect(await replaceMeasures(ctx, [{ id: answer.id, measure: same }])).toEqual([]);

    // Changed: rewritten, with what it held before and whether the rollups count it.
    const changed = { ...same, score: 0, brand: { ...same.brand, position: null } };
    await h.deps.db.updateTable("results").set({ rolled_up: false }).where("id", "=", answer.id).execute();
    const replaced = await replaceMeasures(ctx, [
      { id: answer.id, measure: changed },
      { id: "res_missing", measure: changed },
    ]);
    expect(replaced).toEqual([{ id: answer.id, old, measure: changed, rolledUp: false }]);
    const [now] = await stored(row.id);
    expect(now).toMatchObject({ score: 0, position: null });
    expect(JSON.parse(now?.measure ?? "null")).toEqual(changed);

    // Another workspace's context reaches none of them.
    const other = await workspaceContext(h.deps, (await h.tenant("agency")).workspace.id);
    expect(await replaceMeasures(other, [{ id: answer.id, measure: same }])).toEqual([]);
  });

  it("marks uncounted answers counted once, and removes old texts a batch at a time", async () => {
    const row = await analysis();
    await insertResults(ctx, await answers(row));
    const ids = (await stored(row.id)).map((r) => r.id);
    await h.deps.db.updateTable("results").set({ rolled_up: false }).where("id", "in", ids).execute();
    expect(await inTransaction(h.deps, (tx) => markCounted(tx, ids))).toEqual(new Set(ids));
    // Counted meanwhile by another attempt: not returned, so not counted twice.
    expect(await markCounted(h.deps, ids)).toEqual(new Set());

    // Every answer of this file was stored at the same (manual) clock: none is older than now.
    const later = new Date(h.clock.now().getTime() + 1_000).toISOString();
    const withText = async () => (await stored(row.id)).filter((r) => r.text !== null).length;
    expect(await withText()).toBe(1);
    expect(await removeAnswerTexts(h.deps, h.clock.now().toISOString(), 10)).toBe(0);
    expect(await removeAnswerTexts(h.deps, later, 1)).toBe(1);
    let removed = 0;
    for (let n = -1; n !== 0; removed += n) n = await removeAnswerTexts(h.deps, later, 1);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await withText()).toBe(0);
    const [answer] = await stored(row.id);
    // The measure and its counts stay.
    expect(answer?.measure).not.toBeNull();
  });
});
