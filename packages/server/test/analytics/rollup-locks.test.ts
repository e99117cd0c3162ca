import { beforeAll, expect, it } from "vitest";
import { type CountedAnswer, countAnswers } from "../../src/services/analytics/rollups.ts";
import type { AnswerMeasure } from "../../src/services/measurement/types.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

/** Enough prompts that one transaction's rollup rows span several statements (200 rows each). */
const PROMPTS = 600;

const measure: AnswerMeasure = {
  brand: { name: "Acme CRM", mentioned: true, position: 1, sentiment: 0.5, context: null },
  competitors: [],
  citations: [],
  citation_source: "engine",
  brand_cited: false,
  score: 60,
  score_version: "2",
} as unknown as AnswerMeasure;

/**
 * Two analyses of one project store their answers at the same moment, in opposite orders (the
 * order their engines happened to answer in). Their rollup upserts touch the same rows; on
 * PostgreSQL, rows locked in two different orders deadlock, and one analysis's answers fail and
 * wait out a retry. Rows are locked in key order, so both transactions commit and the counts add up.
 */
describeEachDialect("rollup writes from concurrent analyses", (h) => {
  let t: Tenant;
  let projectId: string;

  beforeAll(async () => {
    t = await h.tenant("agency");
    projectId = (
      await h.call("createProject", { key: t.key, body: { name: "Acme CRM", primary_domain: "acmecrm.com" } })
    ).json().id;
  });

  it("never deadlock, whatever order the answers come in, and count every answer", async () => {
    const answers: CountedAnswer[] = Array.from({ length: PROMPTS }, (_, i) => ({
      workspace_id: t.workspace.id,
      project_id: projectId,
      engine: "chatgpt",
      prompt: `prompt ${String(i).padStart(4, "0")}`,
      created_at: "2026-11-20T10:00:00.000Z",
      measure,
    }));
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      const outcomes = await Promise.allSettled([
        h.deps.db.transaction().execute((trx) => countAnswers(trx, answers)),
        h.deps.db.transaction().execute((trx) => countAnswers(trx, [...answers].reverse())),
      ]);
      const failed = outcomes.filter((o) => o.status === "rejected").map((o) => String(o.reason));
      expect(failed).toEqual([]);
    }

    const rows = await h.deps.db
      .selectFrom("result_rollups")
      .select(["prompt_key", "answers", "mentioned"])
      .where("project_id", "=", projectId)
      .where("grain", "=", "day")
      .where("subject", "=", "")
      .execute();
    expect(rows).toHaveLength(PROMPTS);
    expect(rows.every((row) => Number(row.answers) === 2 * rounds && Number(row.mentioned) === 2 * rounds)).toBe(true);
    const engine = await h.deps.db
      .selectFrom("engine_rollups")
      .select("answers")
      .where("project_id", "=", projectId)
      .where("subject", "=", "")
      .executeTakeFirstOrThrow();
    expect(Number(engine.answers)).toBe(2 * rounds * PROMPTS);
  });
});
