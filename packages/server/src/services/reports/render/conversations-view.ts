import { count } from "../../../lib/plural.ts";
import * as f from "../../glossary/format.ts";
import { GLOSSARY } from "../../glossary/metrics.ts";
import { engineTitle } from "../../labels.ts";
import type { ReportAudiences, ReportConversation } from "../types.ts";

/**
 * The report's "Conversations" and "Personas and countries" (issue 29) in words a marketer reads,
 * each rate with its interval and n as the glossary's formatters print them everywhere.
 */
export interface ConversationsView {
  note: string;
  scripts: { title: string; lines: string[] }[];
}

export interface AudiencesView {
  note: string;
  sections: { title: string; lines: string[] }[];
}

export function conversationsView(conversations: readonly ReportConversation[] | undefined): ConversationsView | null {
  if (conversations === undefined || conversations.length === 0) return null;
  return {
    note: "Each script run as one conversation per engine: entered is how often the brand was named at some turn, survived how often the last answer (the final recommendation) names it, dropped out how often it was named and then gone for good. Rates are over the conversations that ended in this period, with their 95% intervals.",
    scripts: conversations.map((script) => ({
      title: `${script.script_name} (${count(script.turns, "turn")})`,
      lines: script.engines.map(
        (e) =>
          `${engineTitle(e.engine)}: ${count(e.conversations, "conversation")}; entered ${f.proportion(e.entered)}${
            e.entry_turn_median === null ? "" : `, typically at turn ${e.entry_turn_median}`
          }; survived ${f.proportion(e.survived)}; dropped out ${f.proportion(e.dropped)}.`,
      ),
    })),
  };
}

const STANDS: Record<ReportAudiences["by_persona"][number]["against_all"], string> = {
  above: " (above all answers)",
  below: " (below all answers)",
  overlap: "",
};

export function audiencesView(audiences: ReportAudiences | undefined): AudiencesView | null {
  if (audiences === undefined) return null;
  const lines = (groups: ReportAudiences["by_persona"]) =>
    groups.map(
      (g) =>
        `${g.label}: ${GLOSSARY.visibility.name.toLowerCase()} ${f.proportion(g.visibility)}${STANDS[g.against_all]}.`,
    );
  return {
    note: `${GLOSSARY.visibility.name} of the answers asked under each persona and from each country in this period. "Above" or "below" all answers: the intervals do not overlap.`,
    sections: [
      ...(audiences.by_persona.length > 1 ? [{ title: "By persona", lines: lines(audiences.by_persona) }] : []),
      ...(audiences.by_country.length > 1 ? [{ title: "By country", lines: lines(audiences.by_country) }] : []),
    ],
  };
}
