import { Link } from "@tanstack/react-router";
import { type BrandSearch, sharedFilters } from "../../lib/period.ts";

const linkClass =
  "inline-flex shrink-0 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";
const active = { className: "bg-accent text-foreground" };

/** A brand's pages; the period and engine filters travel with the links. */
export function BrandNav({
  workspaceId,
  brandId,
  search,
}: {
  workspaceId: string;
  brandId: string;
  search: BrandSearch;
}) {
  const params = { workspaceId, brandId };
  const filters = sharedFilters(search);
  return (
    // A dozen pages: they wrap onto a second line rather than hide the last ones behind a sideways scroll.
    <nav aria-label="Brand" className="-mx-1 border-b pb-1.5">
      <ul className="flex flex-wrap gap-1 px-1">
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId"
            params={params}
            search={filters}
            activeOptions={{ exact: true, includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Overview
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/prompts"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Prompts
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/answers"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Answers
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/sources"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Sources
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/competitors"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Competitors
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/audiences"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Audiences
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/conversations"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Conversations
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/opportunities"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Opportunities
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/traffic"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Traffic
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/experiments"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Experiments
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/monitoring"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Monitoring
          </Link>
        </li>
        <li>
          <Link
            to="/w/$workspaceId/brands/$brandId/analyses"
            params={params}
            search={filters}
            activeOptions={{ includeSearch: false }}
            className={linkClass}
            activeProps={active}
          >
            Analyses &amp; reports
          </Link>
        </li>
      </ul>
    </nav>
  );
}
