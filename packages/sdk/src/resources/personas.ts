import type { Sightline } from "../client.ts";
import type { GetProjectBreakdownQuery } from "../generated/operations.ts";
import type {
  Breakdown,
  ConversationDeleted,
  Persona,
  PersonaCreate,
  PersonaList,
  PersonaUpdate,
} from "../generated/schemas.ts";

/** A brand's personas (who asks) and its figures per persona or country: `sightline.personas`. */
export class Personas {
  constructor(private readonly client: Sightline) {}

  /** @example const { data } = await sightline.personas.list("prj_…"); */
  list(projectId: string): Promise<PersonaList> {
    return this.client.request("listPersonas", { params: { id: projectId } });
  }

  /**
   * Adds a persona: while active, every prompt of the brand is asked under it.
   * @example const persona = await sightline.personas.create("prj_…", { name: "Cautious CFO", role: "CFO", constraints: "We can't use Salesforce" });
   */
  create(projectId: string, body: PersonaCreate): Promise<Persona> {
    return this.client.request("createPersona", { params: { id: projectId }, body });
  }

  retrieve(projectId: string, personaId: string): Promise<Persona> {
    return this.client.request("getPersona", { params: { id: projectId, persona_id: personaId } });
  }

  /** Changes it; any change but `active` makes a new version. */
  update(projectId: string, personaId: string, body: PersonaUpdate): Promise<Persona> {
    return this.client.request("updatePersona", { params: { id: projectId, persona_id: personaId }, body });
  }

  delete(projectId: string, personaId: string): Promise<ConversationDeleted> {
    return this.client.request("deletePersona", { params: { id: projectId, persona_id: personaId } });
  }

  /**
   * The brand's figures per persona or per country, counted from its answers.
   * @example const { groups } = await sightline.personas.breakdown("prj_…", { by: "country" });
   */
  breakdown(projectId: string, query: GetProjectBreakdownQuery): Promise<Breakdown> {
    return this.client.request("getProjectBreakdown", { params: { id: projectId }, query });
  }
}
