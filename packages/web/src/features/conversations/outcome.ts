import type { Conversation } from "@sightline/sdk";

type Outcome = Pick<
  Conversation,
  "status" | "entry_turn" | "drop_turn" | "survived" | "stop_reason" | "turns_answered" | "turns_planned"
> & { turns?: Pick<NonNullable<Conversation["turns"]>[number], "turn" | "mentioned">[] | undefined };

/**
 * Why a turn was not asked, or a conversation stopped, as the server said it without its
 * bookkeeping: "turn 2: not asked: the previous answer named…" → "the previous answer named…".
 */
export function reasonOf(text: string): string {
  return text
    .replace(/^turn \d+:\s*/i, "")
    .replace(/^not asked:\s*/i, "")
    .replace(/[.\s]+$/, "");
}

/** How a conversation went for the brand, in a short phrase: "Entered at turn 2, still named at the end". */
export function outcomeShort(c: Outcome): string {
  if (c.status === "running") return `Under way: ${c.turns_answered} of ${c.turns_planned} turns answered`;
  // A conversation that stopped is not measured as a whole: where the brand entered is not said.
  if (c.status === "stopped") return `Stopped after turn ${c.turns_answered} of ${c.turns_planned}`;
  if (c.entry_turn === null) return "Never named";
  const entered = c.entry_turn === 1 ? "Named from the first answer" : `Entered at turn ${c.entry_turn}`;
  if (c.drop_turn !== null) return `${entered}, dropped out at turn ${c.drop_turn}`;
  if (c.survived) return `${entered}, still named at the end`;
  return `${entered}, not named at the end`;
}

/** The same as a sentence about the brand, for the conversation's own page (whose turns say more). */
export function outcomeSentence(c: Outcome, brand: string): string {
  if (c.status === "running")
    return `The conversation is still being asked: ${c.turns_answered} of ${c.turns_planned} turns answered so far.`;
  if (c.status === "stopped") {
    const named = c.turns?.find((t) => t.mentioned)?.turn;
    const why = c.stop_reason ? `: ${reasonOf(c.stop_reason)}` : "";
    const before =
      c.turns === undefined
        ? ""
        : named === undefined
          ? ` ${brand} was not named before it stopped.`
          : ` ${brand} was named at turn ${named} before it stopped.`;
    return `The conversation stopped after turn ${c.turns_answered} of ${c.turns_planned}${why}.${before}`;
  }
  if (c.entry_turn === null) return `${brand} was never named.`;
  const entered =
    c.entry_turn === 1
      ? `${brand} was named from the first answer`
      : `${brand} entered the conversation at turn ${c.entry_turn}`;
  if (c.drop_turn !== null)
    return `${entered} and dropped out at turn ${c.drop_turn}: not named from that turn to the final answer.`;
  if (c.survived) return `${entered} and is still named in the final answer.`;
  return `${entered} but is not named in the final answer.`;
}
