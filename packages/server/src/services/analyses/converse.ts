import { renderTurn } from "../conversations/templates.ts";
import type { AskResult } from "../engines/registry.ts";
import type { EngineQuery, PriorTurn } from "../engines/types.ts";
import type { AnswerMeasure, MeasuredProject } from "../measurement/types.ts";
import type { PlannedConversation, WorkItem } from "./plan.ts";

/** Which turn of which conversation an answer is. */
interface TurnOf {
  conversationId: string;
  turn: number;
}

export interface ConverseDeps {
  brand: string;
  language: string | null;
  seed: string;
  simulation: MeasuredProject;
  ask(engine: string, query: EngineQuery): Promise<AskResult>;
  /** Measures and stores a turn's answer (or failure); returns its measure (null for a failure). */
  store(item: WorkItem, turn: TurnOf, asked: AskResult): Promise<AnswerMeasure | null>;
  /** Stores a turn that was not asked, with why: a failed answer that costs nothing (its credit is given back). */
  skip(item: WorkItem, turn: TurnOf, reason: string): void;
}

/**
 * Carries a conversation on from its last stored turn (issue 29): each turn's template filled in
 * from the previous answer, asked with the conversation so far (as the vendor takes it: its own
 * state or the history), measured and stored as an answer of its own. A turn that fails, or that
 * refers to something the previous answer did not name, ends the conversation there: the turns
 * after it are stored as not asked, so that nothing is charged for them.
 */
export async function converse(conversation: PlannedConversation, deps: ConverseDeps): Promise<void> {
  const { row, turns, variables, done } = conversation;
  const itemOf = (turn: number, prompt: string): WorkItem => ({
    promptIndex: conversation.firstSlot + turn - 1,
    prompt,
    engine: row.engine,
    sample: row.sample,
    personaId: row.persona_id,
    personaVersion: row.persona_version,
    persona: conversation.persona,
    country: row.country,
    strictCountry: true,
  });
  const skipFrom = (first: number, reason: string) => {
    for (let turn = first; turn <= turns.length; turn++) {
      if (!done.some((d) => d.turn === turn))
        deps.skip(itemOf(turn, turns[turn - 1] ?? ""), { conversationId: row.id, turn }, reason);
    }
  };
  const history: PriorTurn[] = [];
  let previous: AnswerMeasure | null = null;
  for (let turn = 1; turn <= turns.length; turn++) {
    const stored = done.find((d) => d.turn === turn);
    if (stored !== undefined) {
      if (!stored.succeeded) return skipFrom(turn + 1, `turn ${turn} of the conversation failed`);
      history.push({ prompt: stored.prompt, answer: stored.text ?? "", responseId: stored.responseId });
      previous = stored.measure;
      continue;
    }
    const rendered = renderTurn(turns[turn - 1] ?? "", { brand: deps.brand, variables, previous });
    if (!rendered.ok) {
      deps.skip(itemOf(turn, turns[turn - 1] ?? ""), { conversationId: row.id, turn }, rendered.reason);
      return skipFrom(turn + 1, `turn ${turn} of the conversation was not asked`);
    }
    const asked = await deps.ask(row.engine, {
      prompt: rendered.text,
      country: row.country,
      language: deps.language,
      sample: row.sample,
      seed: deps.seed,
      simulation: deps.simulation,
      persona: conversation.persona,
      history: [...history],
    });
    const measure = await deps.store(itemOf(turn, rendered.text), { conversationId: row.id, turn }, asked);
    if (!asked.outcome.ok) return skipFrom(turn + 1, `turn ${turn} of the conversation failed`);
    history.push({
      prompt: rendered.text,
      answer: asked.outcome.answer.text,
      responseId: asked.outcome.answer.responseId ?? null,
    });
    previous = measure;
  }
}
