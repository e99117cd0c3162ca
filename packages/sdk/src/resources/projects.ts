import type { Sightline } from "../client.ts";
import type { ListProjectsQuery } from "../generated/operations.ts";
import type { Project, ProjectCreate, ProjectList, ProjectUpdate } from "../generated/schemas.ts";
import { paginate } from "../pagination.ts";

/** Brands: `sightline.projects`. */
export class Projects {
  constructor(private readonly client: Sightline) {}

  /**
   * One page of the workspace's brands, newest first.
   * @example const { data, has_more, next_cursor } = await sightline.projects.list({ limit: 50 });
   */
  list(query: ListProjectsQuery = {}): Promise<ProjectList> {
    return this.client.request("listProjects", { query });
  }

  /**
   * Every brand, fetching pages as the loop needs them.
   * @example for await (const project of sightline.projects.listAll()) console.log(project.name);
   */
  listAll(query: Omit<ListProjectsQuery, "cursor"> = {}): AsyncIterable<Project> {
    return paginate((cursor) => this.list({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
  }

  /**
   * Adds a brand. Emits `project.created`.
   * @example await sightline.projects.create({ name: "Acme", primary_domain: "acme.com", competitors: [{ name: "Globex" }] });
   */
  create(body: ProjectCreate): Promise<Project> {
    return this.client.request("createProject", { body });
  }

  /** @example const project = await sightline.projects.retrieve("prj_…"); */
  retrieve(id: string): Promise<Project> {
    return this.client.request("getProject", { params: { id } });
  }

  /**
   * Changes the fields given; emits `project.updated` when something changed.
   * @example await sightline.projects.update("prj_…", { prompts: ["best crm for startups"] });
   */
  update(id: string, body: ProjectUpdate): Promise<Project> {
    return this.client.request("updateProject", { params: { id }, body });
  }
}
