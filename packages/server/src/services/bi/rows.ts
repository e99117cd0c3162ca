/** An answer as the export reads it: the columns of `results` that bi.answers shows, and its measure. */
interface AnswerRow {
  id: string;
  workspace_id: string;
  project_id: string;
  analysis_id: string;
  engine: string;
  model: string | null;
  prompt: string;
  sample: number;
  created_at: string;
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  brand_cited: boolean;
  citation_count: number;
  brand_citation_count: number;
  score: number | null;
  cost_micros: number | null;
  measure: string | null;
}

interface Citation {
  url?: unknown;
  domain?: unknown;
  brand?: unknown;
  competitor?: unknown;
  category?: unknown;
}

/** The stored measure's citations, as bi.citations reads them (an unreadable measure has none). */
function citationsOf(measure: string | null): Citation[] {
  if (measure === null) return [];
  try {
    const parsed = JSON.parse(measure) as { citations?: unknown };
    return Array.isArray(parsed.citations) ? (parsed.citations as Citation[]) : [];
  } catch {
    return [];
  }
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

interface Cell {
  workspace_id: string;
  brand_id: string;
  engine: string;
  prompt: string;
  day: string;
  answers: number;
  mentioned: number;
  brand_cited: number;
  position: { sum: number; n: number };
  sentiment: { sum: number; n: number };
  score: { sum: number; n: number };
}

const mean = (s: { sum: number; n: number }): number | null => (s.n === 0 ? null : s.sum / s.n);

/** bi.daily_metrics: answers counted per brand, engine, prompt and UTC day, as the view's GROUP BY. */
export class DailyTally {
  private readonly cells = new Map<string, Cell>();

  add(r: AnswerRow): void {
    const day = r.created_at.slice(0, 10);
    const key = JSON.stringify([r.project_id, r.engine, r.prompt, day]);
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = {
        workspace_id: r.workspace_id,
        brand_id: r.project_id,
        engine: r.engine,
        prompt: r.prompt,
        day,
        answers: 0,
        mentioned: 0,
        brand_cited: 0,
        position: { sum: 0, n: 0 },
        sentiment: { sum: 0, n: 0 },
        score: { sum: 0, n: 0 },
      };
      this.cells.set(key, cell);
    }
    cell.answers += 1;
    if (r.brand_cited) cell.brand_cited += 1;
    if (r.score !== null) cell.score = { sum: cell.score.sum + r.score, n: cell.score.n + 1 };
    if (!r.mentioned) return;
    cell.mentioned += 1;
    if (r.position !== null) cell.position = { sum: cell.position.sum + r.position, n: cell.position.n + 1 };
    if (r.sentiment !== null) {
      cell.sentiment = { sum: cell.sentiment.sum + 50 + 50 * r.sentiment, n: cell.sentiment.n + 1 };
    }
  }

  /** The rows, by day, brand, engine and prompt, in bi.daily_metrics's columns. */
  rows(): unknown[][] {
    const order = (c: Cell) => [c.day, c.brand_id, c.engine, c.prompt];
    return [...this.cells.values()]
      .sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        for (let i = 0; i < x.length; i++) {
          const diff = (x[i] ?? "") < (y[i] ?? "") ? -1 : (x[i] ?? "") > (y[i] ?? "") ? 1 : 0;
          if (diff !== 0) return diff;
        }
        return 0;
      })
      .map((c) => [
        c.workspace_id,
        c.brand_id,
        c.engine,
        c.prompt,
        c.day,
        c.answers,
        c.mentioned,
        c.mentioned / c.answers,
        c.brand_cited,
        mean(c.position),
        mean(c.sentiment),
        mean(c.score),
      ]);
  }
}

/** Turns pages of answers into bi.answers and bi.citations lines, tallying bi.daily_metrics. */
export function answerRows(): {
  tally: DailyTally;
  page(rows: readonly AnswerRow[]): { answers: unknown[][]; citations: unknown[][] };
} {
  const tally = new DailyTally();
  return {
    tally,
    page(rows) {
      const answers: unknown[][] = [];
      const citations: unknown[][] = [];
      for (const r of rows) {
        tally.add(r);
        answers.push([
          r.id,
          r.workspace_id,
          r.project_id,
          r.analysis_id,
          r.engine,
          r.model,
          r.prompt,
          r.sample,
          r.created_at,
          r.mentioned,
          r.position,
          // The glossary's 0–100 scale, computed as the view computes it (no rounding: the same double).
          r.sentiment === null ? null : 50 + 50 * r.sentiment,
          r.brand_cited,
          r.citation_count,
          r.brand_citation_count,
          r.score,
          r.cost_micros === null ? null : r.cost_micros / 1_000_000,
        ]);
        for (const [index, c] of citationsOf(r.measure).entries()) {
          citations.push([
            r.id,
            r.workspace_id,
            r.project_id,
            r.engine,
            index + 1,
            text(c.url),
            text(c.domain),
            typeof c.brand === "boolean" ? c.brand : null,
            text(c.competitor),
            text(c.category),
            r.created_at,
          ]);
        }
      }
      return { answers, citations };
    },
  };
}
