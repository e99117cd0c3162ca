import type { Breakdown, Persona, PersonaCreate, PersonaUpdate } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import type { Period } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

export type { Breakdown, Persona, PersonaCreate, PersonaUpdate };
export type BreakdownGroup = Breakdown["groups"][number];

/** A brand has at most this many personas, and is tracked in at most this many countries (the API's limits). */
export const MAX_PERSONAS = 10;
export const MAX_COUNTRIES = 10;

function personasKey(workspaceId: string, projectId: string) {
  return keys.workspacePart(workspaceId, "audiences", projectId, "personas");
}

/** The brand's personas, oldest first, each with the text the engines receive. */
export function personasQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: personasKey(workspaceId, projectId),
    queryFn: ({ signal }) => v1Call(workspaceId, "listPersonas", { params: { id: projectId } }, { signal }),
  });
}

/** Every query of the brand's personas, to refresh after one changes. */
export function allPersonasKey(workspaceId: string, projectId: string) {
  return personasKey(workspaceId, projectId);
}

export function createPersona(workspaceId: string, projectId: string, body: PersonaCreate): Promise<Persona> {
  return v1Call(workspaceId, "createPersona", { params: { id: projectId }, body });
}

export function updatePersona(
  workspaceId: string,
  projectId: string,
  personaId: string,
  body: PersonaUpdate,
): Promise<Persona> {
  return v1Call(workspaceId, "updatePersona", { params: { id: projectId, persona_id: personaId }, body });
}

export function deletePersona(workspaceId: string, projectId: string, personaId: string) {
  return v1Call(workspaceId, "deletePersona", { params: { id: projectId, persona_id: personaId } });
}

/**
 * The brand's figures per persona or per country over the period (and engine). Under "analytics":
 * computed from the answers, so read again with every figure when an analysis finishes.
 */
export function breakdownQuery(
  workspaceId: string,
  projectId: string,
  by: "persona" | "country",
  period: Period,
  engine: string | undefined,
) {
  return queryOptions({
    queryKey: keys.workspacePart(
      workspaceId,
      "analytics",
      projectId,
      "breakdown",
      by,
      period.from,
      period.to,
      engine ?? "",
    ),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectBreakdown",
        {
          params: { id: projectId },
          query: { by, from: period.from, to: period.to, ...(engine ? { engine } : {}) },
        },
        { signal },
      ),
  });
}
