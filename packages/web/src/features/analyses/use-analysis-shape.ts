import type { Project } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { personasQuery } from "../audiences/audiences-api.ts";
import { scriptsQuery } from "../conversations/conversations-api.ts";
import { enginesQuery } from "../engines/engines-api.ts";

/** Who an analysis of the brand asks as, from where, and which conversations it holds, as the brand is now. */
export interface Audience {
  personas: number;
  countries: number;
  scripts: number;
  scriptTurns: number;
  /** Whether an engine holds conversations (its reach): APIs do; search and scraped web surfaces do not. */
  holdsConversations: (engine: string) => boolean;
}

export function useAudience(workspaceId: string, project: Project): Audience {
  const personas = useQuery(personasQuery(workspaceId, project.id));
  const scripts = useQuery(scriptsQuery(workspaceId, project.id));
  const engines = useQuery(enginesQuery(workspaceId));
  const active = (scripts.data?.data ?? []).filter((s) => s.active);
  return {
    personas: (personas.data?.data ?? []).filter((p) => p.active).length,
    countries: (project.countries ?? []).length,
    scripts: active.length,
    scriptTurns: active.reduce((sum, s) => sum + s.turns.length, 0),
    // As the engine says it holds one (its reach); an engine that cannot answer here holds none.
    holdsConversations: (engine) =>
      (engines.data?.data.find((e) => e.name === engine)?.reach?.conversation ?? "none") !== "none",
  };
}
