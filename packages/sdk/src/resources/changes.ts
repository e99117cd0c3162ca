import type { Sightline } from "../client.ts";
import type { ListChangesQuery } from "../generated/operations.ts";
import type { Change, ChangeCreate, ChangeDeleted, ChangeList, ChangeSamples } from "../generated/schemas.ts";

/** Changes measured as experiments: `sightline.changes` (a brand's, by its id). */
export class Changes {
  constructor(private readonly client: Sightline) {}

  /**
   * Records a change; treated prompts left out are proposed. The answer carries the sample plan.
   * @example const change = await sightline.changes.create("prj_…", { title: "New pricing page", pages: ["https://acme.com/pricing"] });
   */
  create(projectId: string, body: ChangeCreate): Promise<Change> {
    return this.client.request("createChange", { params: { id: projectId }, body });
  }

  /** @example const { data } = await sightline.changes.list("prj_…"); */
  list(projectId: string, query: ListChangesQuery = {}): Promise<ChangeList> {
    return this.client.request("listChanges", { params: { id: projectId }, query });
  }

  /**
   * Every figure of the experiment: the effect with its interval and p-value, the pre-trend check, the plan.
   * @example const { status, summary } = await sightline.changes.retrieve("prj_…", "chg_…");
   */
  retrieve(projectId: string, changeId: string): Promise<Change> {
    return this.client.request("getChange", { params: { id: projectId, change_id: changeId } });
  }

  /** Deletes the change and the schedule collecting its samples. */
  delete(projectId: string, changeId: string): Promise<ChangeDeleted> {
    return this.client.request("deleteChange", { params: { id: projectId, change_id: changeId } });
  }

  /**
   * Schedules the extra samples the plan needs: daily, treated and control prompts together.
   * @example const { plan } = await sightline.changes.scheduleSamples("prj_…", "chg_…", { at: "09:00" });
   */
  scheduleSamples(projectId: string, changeId: string, body: ChangeSamples = {}): Promise<Change> {
    return this.client.request("scheduleChangeSamples", { params: { id: projectId, change_id: changeId }, body });
  }
}
