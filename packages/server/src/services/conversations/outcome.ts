/**
 * What a conversation measured, from its turns (issue 29): where the brand entered, whether it
 * survived to the final recommendation, and where it dropped out. Pure, so that a test can
 * recompute it from the stored turns.
 */
export interface ConversationOutcome {
  /** The first turn whose answer names the brand; null if none did. */
  entryTurn: number | null;
  /** Whether the last turn's answer names it. */
  survived: boolean;
  /**
   * When it appeared but the last turn does not name it: the turn after its last appearance,
   * i.e. the follow-up after which it was gone for good. Null otherwise.
   */
  dropTurn: number | null;
}

/** The outcome of an ended conversation, from whether each turn (1, 2, …, in any order) named the brand. */
export function conversationOutcome(turns: readonly { turn: number; mentioned: boolean }[]): ConversationOutcome {
  const sorted = [...turns].sort((a, b) => a.turn - b.turn);
  const named = sorted.filter((t) => t.mentioned).map((t) => t.turn);
  const entryTurn = named[0] ?? null;
  const survived = sorted.at(-1)?.mentioned ?? false;
  const lastSeen = named.at(-1);
  return { entryTurn, survived, dropTurn: lastSeen !== undefined && !survived ? lastSeen + 1 : null };
}
