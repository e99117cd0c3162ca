import { describe, expect, it } from "vitest";
import { countAnswers, describeAnswers } from "../src/features/analyses/answer-count.ts";
import { outcomeSentence, outcomeShort, reasonOf } from "../src/features/conversations/outcome.ts";
import {
  checkScript,
  emptyScript,
  placeholderIssue,
  type ScriptDraft,
  scriptBodyOf,
  scriptDraftOf,
  scriptServerErrors,
} from "../src/features/conversations/script-draft.ts";
import { ApiError } from "../src/lib/api.ts";

function draft(patch: Partial<ScriptDraft> = {}): ScriptDraft {
  return {
    ...emptyScript(),
    name: "Shortlist, then a constraint",
    opening: "Which CRM suits a small agency?",
    followUps: [
      { key: 1, text: "We can't use {top_competitor_named}; what else?" },
      { key: 2, text: "Which of those works with {tool}?" },
    ],
    variables: [{ key: 3, name: "tool", value: "Slack" }],
    ...patch,
  };
}

describe("a conversation script's form", () => {
  it("sends the opening question and the follow-ups as turns, the variables as a record, none as null", () => {
    expect(scriptBodyOf(draft({ name: "  Shortlist ", country: "DE" }))).toEqual({
      name: "Shortlist",
      turns: [
        "Which CRM suits a small agency?",
        "We can't use {top_competitor_named}; what else?",
        "Which of those works with {tool}?",
      ],
      variables: { tool: "Slack" },
      persona_id: null,
      country: "DE",
      active: true,
    });
    expect(checkScript(draft())).toEqual({});
  });

  it("reads a script back into the form", () => {
    const back = scriptDraftOf({
      id: "cvs_1",
      object: "conversation_script",
      project_id: "prj_1",
      name: "Shortlist",
      turns: ["a", "b", "c"],
      variables: { tool: "Slack" },
      persona_id: "per_1",
      country: null,
      active: false,
      created_at: "2026-11-27T00:00:00Z",
      updated_at: "2026-11-27T00:00:00Z",
    });
    expect(back).toMatchObject({ opening: "a", personaId: "per_1", country: "", active: false });
    expect(back.followUps.map((f) => f.text)).toEqual(["b", "c"]);
    expect(back.variables.map((v) => [v.name, v.value])).toEqual([["tool", "Slack"]]);
  });

  it("checks names, turns, placeholders and variables before sending", () => {
    const errors = checkScript(
      draft({
        name: " ",
        opening: "Who beats {top_competitor_named}?",
        followUps: [
          { key: 1, text: "" },
          { key: 2, text: "And {colour}?" },
        ],
        variables: [
          { key: 3, name: "Tool", value: "Slack" },
          { key: 4, name: "size", value: "" },
        ],
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(["name", "turns.0", "turns.1", "turns.2", "variables.0", "variables.1"]);
    expect(errors["turns.0"]).toMatch(/no previous answer/);
    expect(errors["turns.2"]).toMatch(/\{colour\} is not a placeholder/);
    expect(checkScript(draft({ followUps: [] }))).toEqual({ followUps: expect.stringMatching(/at least one/) });
    expect(placeholderIssue("We use {tool} with {brand}", 1, ["tool"])).toBeUndefined();
  });

  it("places the server's issues on the turn, the variable and the form", () => {
    const error = new ApiError(400, "VALIDATION_ERROR", "Invalid", [
      { field: "turns[2]", issue: "{colour} is not a placeholder" },
      { field: "variables.tool", issue: "a name is lower-case letters" },
      { field: "country", issue: "must be an ISO 3166-1 alpha-2 country code" },
      { issue: "a brand has at most 10 conversation scripts; delete one first" },
    ]);
    expect(scriptServerErrors(error, draft())).toEqual({
      fields: {
        "turns.2": "{colour} is not a placeholder.",
        "variables.0": "A name is lower-case letters.",
        country: "Must be an ISO 3166-1 alpha-2 country code.",
      },
      message: "A brand has at most 10 conversation scripts; delete one first.",
    });
    expect(scriptServerErrors(new Error("offline"), draft())).toEqual({ fields: {}, message: "offline" });
  });
});

describe("a conversation's outcome in words", () => {
  const base = { status: "completed" as const, turns_answered: 3, turns_planned: 3, stop_reason: null };

  it("says where the brand entered, whether it survived or dropped out", () => {
    const survived = { ...base, entry_turn: 2, drop_turn: null, survived: true };
    expect(outcomeShort(survived)).toBe("Entered at turn 2, still named at the end");
    expect(outcomeSentence(survived, "Acme")).toBe(
      "Acme entered the conversation at turn 2 and is still named in the final answer.",
    );
    const dropped = { ...base, entry_turn: 1, drop_turn: 3, survived: false };
    expect(outcomeShort(dropped)).toBe("Named from the first answer, dropped out at turn 3");
    expect(outcomeShort({ ...base, entry_turn: null, drop_turn: null, survived: false })).toBe("Never named");
  });

  it("says why a conversation stopped, and how far one under way is", () => {
    const stopped = {
      ...base,
      status: "stopped" as const,
      turns_answered: 1,
      entry_turn: null,
      drop_turn: null,
      survived: null,
      stop_reason: "turn 2: not asked: the previous answer named no tracked competitor for {top_competitor_named}",
    };
    expect(outcomeShort(stopped)).toBe("Stopped after turn 1 of 3");
    const turns = [
      { turn: 1, mentioned: true },
      { turn: 2, mentioned: false },
      { turn: 3, mentioned: false },
    ];
    expect(outcomeSentence({ ...stopped, turns }, "Acme")).toBe(
      "The conversation stopped after turn 1 of 3: the previous answer named no tracked competitor for {top_competitor_named}. Acme was named at turn 1 before it stopped.",
    );
    expect(reasonOf("not asked: turn 2 of the conversation was not asked")).toBe(
      "turn 2 of the conversation was not asked",
    );
    expect(outcomeShort({ ...stopped, status: "running", stop_reason: null })).toBe("Under way: 1 of 3 turns answered");
  });
});

describe("an analysis's answers", () => {
  it("multiplies the prompts by personas and countries, and adds the conversations' turns", () => {
    const shape = {
      prompts: 3,
      engines: 2,
      samples: 2,
      personas: 2,
      countries: 2,
      scripts: 1,
      scriptTurns: 3,
      talkers: 1,
    };
    expect(countAnswers(shape)).toEqual({ single: 48, conversations: 2, turns: 6, total: 54 });
    expect(describeAnswers(shape)).toBe(
      "3 prompts × 2 engines × 2 samples × 2 personas × 2 countries = 48 answers, plus 2 conversations (6 turns)",
    );
    const plain = { ...shape, personas: 0, countries: 1, scripts: 0, scriptTurns: 0 };
    expect(countAnswers(plain).total).toBe(12);
    expect(describeAnswers(plain)).toBe("3 prompts × 2 engines × 2 samples = 12 answers");
  });
});
