import { sha256Hex } from "../../lib/crypto.ts";
import type { SuggestionMarket } from "./instruction.ts";

/**
 * The offline `sandbox` engine's answer to a suggestion instruction: what an assistant would reply,
 * made deterministically from buyers' questions about the category, in the numbered shape the
 * instruction asks for. The sandbox's adapter simulates answers to tracked prompts; a request for
 * suggestions is answered here instead, so that `npm start` and test mode suggest realistic
 * questions with no vendor key. It writes English, names no brand, and varies with the category
 * (which questions, in which order) but never from one request to the next.
 */
const QUESTIONS: readonly { stage: "awareness" | "consideration" | "decision"; text: string }[] = [
  { stage: "awareness", text: "What is {x} and how does it work?" },
  { stage: "awareness", text: "Why do companies use {x}?" },
  { stage: "awareness", text: "What problems does {x} solve?" },
  { stage: "awareness", text: "Do I really need {x}, or can I manage without it?" },
  { stage: "awareness", text: "What are the signs that a team has outgrown spreadsheets and needs {x}?" },
  { stage: "consideration", text: "What should I look for in {x}?" },
  { stage: "consideration", text: "What are the main features to compare in {x}?" },
  { stage: "consideration", text: "Which {x} is the easiest to set up?" },
  { stage: "consideration", text: "How much does {x} usually cost?" },
  { stage: "consideration", text: "Which {x} integrates with the tools we already use?" },
  { stage: "consideration", text: "What are the pros and cons of the most popular {x}?" },
  { stage: "consideration", text: "Is free {x} good enough to start with?" },
  { stage: "consideration", text: "Which {x} has the best customer support?" },
  { stage: "decision", text: "What is the best {x} right now?" },
  { stage: "decision", text: "Which {x} gives the best value for money?" },
  { stage: "decision", text: "What do reviews say about the leading {x}?" },
  { stage: "decision", text: "How hard is it to switch to a new {x}?" },
  { stage: "decision", text: "Which {x} is the most reliable and secure?" },
  { stage: "decision", text: "What mistakes should I avoid when buying {x}?" },
  { stage: "decision", text: "Which {x} do experts recommend?" },
  { stage: "decision", text: "Can I try {x} before I pay for it?" },
  { stage: "decision", text: "What are the hidden costs of {x}?" },
];

const STAGE_ORDER = { awareness: 0, consideration: 1, decision: 2 } as const;

export function sandboxSuggestions(market: SuggestionMarket): string {
  // A few more than asked for, as a real engine's list may be: some may be tracked already.
  const wanted = Math.min(QUESTIONS.length, market.count + 5);
  const category = market.category.toLocaleLowerCase("en");
  const picked = QUESTIONS.map((question, index) => ({ question, rank: sha256Hex(`${category}\u0000${index}`) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : 1))
    .slice(0, wanted)
    .map(({ question }) => question)
    .sort((a, b) => STAGE_ORDER[a.stage] - STAGE_ORDER[b.stage]);
  const lines = picked.map(
    (question, index) => `${index + 1}. [${question.stage}] ${question.text.replace("{x}", market.category)}`,
  );
  return [`Here are ${lines.length} questions a buyer might ask:`, "", ...lines].join("\n");
}
