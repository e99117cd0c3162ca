import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { RelativeText } from "../../components/when.tsx";
import { engineName, formatNumber, plural } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { type AccessBot, type AccessDomain, accessQuery } from "./traffic-api.ts";
import { PURPOSE, VERDICT } from "./words.ts";

const SEVERITY: Record<AccessBot["verdict"], number> = { blocked: 0, partial: 1, unknown: 2, allowed: 3 };

/** Worth a look first: crawlers of the engines the brand tracks, then the blocked ones, then those seen lately. */
function ordered(bots: AccessBot[]): AccessBot[] {
  return [...bots].sort(
    (a, b) =>
      Number(b.tracked) - Number(a.tracked) ||
      SEVERITY[a.verdict] - SEVERITY[b.verdict] ||
      b.recent.hits - a.recent.hits,
  );
}

/** Shown before "Show every crawler": those of tracked engines, and any that is blocked or came lately. */
function notable(bot: AccessBot): boolean {
  return bot.tracked || bot.verdict !== "allowed" || bot.recent.hits > 0;
}

/** A status as a marketer reads it: "OK (200)", "not found (404)". */
function statusName(status: number): string {
  if (status === 0) return "status not logged";
  const word =
    status >= 200 && status < 300
      ? "OK"
      : status === 304
        ? "not modified"
        : status >= 300 && status < 400
          ? "redirected"
          : status === 401 || status === 403
            ? "refused"
            : status === 404 || status === 410
              ? "not found"
              : status === 429
                ? "too many requests"
                : status >= 500
                  ? "server error"
                  : "error";
  return `${word} (${status})`;
}

function Served({ bot }: { bot: AccessBot }) {
  if (bot.recent.hits === 0) return <span className="text-muted-foreground">No visit in the logs</span>;
  return (
    <>
      <span className="block tabular-nums">
        {plural(bot.recent.hits, "crawl")}
        {bot.recent.errors > 0 && <span className="text-destructive"> · {plural(bot.recent.errors, "error")}</span>}
      </span>
      <span className="block text-xs text-muted-foreground">
        {bot.recent.statuses
          .slice(0, 3)
          .map((s) => `${formatNumber(s.hits)} ${statusName(s.status)}`)
          .join(" · ")}
      </span>
    </>
  );
}

function Verdict({ bot }: { bot: AccessBot }) {
  return (
    <>
      <Badge variant={VERDICT[bot.verdict].variant}>{VERDICT[bot.verdict].label}</Badge>
      {bot.rule ? (
        // The rule that decides, where it is: the server's reason says the same in a sentence.
        <span className="mt-1 block text-xs">
          <code className="rounded bg-muted px-1 py-0.5">{bot.rule.text}</code>{" "}
          <span className="text-muted-foreground">
            line {bot.rule.line}
            {bot.group ? `, in the rules for ${bot.group === "*" ? "every crawler (*)" : bot.group}` : ""}
          </span>
        </span>
      ) : (
        <span className="mt-1 block text-xs text-muted-foreground">{bot.reason}</span>
      )}
    </>
  );
}

function DomainAudit({ domain }: { domain: AccessDomain }) {
  const headingId = useId();
  const [all, setAll] = useState(false);
  const bots = ordered(domain.bots);
  const shown = all ? bots : bots.filter(notable);
  const blocked = domain.bots.filter((b) => b.tracked && (b.verdict === "blocked" || b.verdict === "partial"));
  const robots = domain.robots_txt;
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <div className="grid gap-1">
        <h3 id={headingId} className="font-semibold wrap-anywhere">
          {domain.domain}
        </h3>
        <ul className="grid gap-0.5 text-sm text-muted-foreground">
          <li>
            robots.txt:{" "}
            {domain.error
              ? domain.error
              : robots.found
                ? "found, read below for each crawler"
                : robots.status !== null && robots.status >= 500
                  ? `answered ${robots.status}: while it does, crawlers must assume the whole site is off limits`
                  : `none (answered ${robots.status ?? "nothing"}): every crawler may read every page`}
            {robots.url && robots.found ? (
              <>
                {" "}
                (
                <a
                  href={robots.url}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="text-primary underline underline-offset-4"
                >
                  open it<span className="sr-only"> (opens in a new tab)</span>
                </a>
                )
              </>
            ) : null}
          </li>
          <li>
            llms.txt:{" "}
            {domain.llms_txt.present
              ? "present (a summary of the site written for AI engines)"
              : "none (optional: a summary of the site written for AI engines)"}
          </li>
          <li>
            Checked <RelativeText value={domain.checked_at} />; checked again every day.
          </li>
        </ul>
        {blocked.length > 0 && (
          <p className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm">
            <strong className="font-semibold">
              {blocked.map((b) => b.bot).join(", ")} {blocked.length === 1 ? "is" : "are"} kept out of{" "}
              {blocked.every((b) => b.verdict === "blocked")
                ? "the whole site"
                : blocked.every((b) => b.verdict === "partial")
                  ? "some pages"
                  : "some or all pages"}
            </strong>
            , though {blocked.length === 1 ? "it feeds" : "they feed"} engines this brand is measured on: those engines
            cannot read the blocked pages, so they cannot cite them. Whoever runs the site can change robots.txt.
          </p>
        )}
      </div>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Crawler</TableHead>
            <TableHead>robots.txt</TableHead>
            <TableHead wide>Last 7 days</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {shown.map((bot) => (
            <TableRow key={bot.bot} className="align-top">
              <TableCell className="min-w-36">
                <span className="block font-medium">{bot.bot}</span>
                <span className="block text-xs text-muted-foreground">
                  {bot.operator} · {PURPOSE[bot.purpose]}
                </span>
                {bot.engines.length > 0 && (
                  <span className="block text-xs text-muted-foreground">
                    Feeds {bot.engines.map(engineName).join(", ")}
                    {bot.tracked ? ", which this brand is measured on" : ""}
                  </span>
                )}
                <span className="mt-1 block text-xs md:hidden">
                  <Served bot={bot} />
                </span>
              </TableCell>
              <TableCell className="min-w-40">
                <Verdict bot={bot} />
              </TableCell>
              <TableCell wide className="min-w-36">
                <Served bot={bot} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {bots.length > shown.length || all ? (
        <div>
          <Button variant="outline" size="sm" onClick={() => setAll((a) => !a)}>
            {all ? "Show only the crawlers that matter here" : `Show every crawler (${bots.length})`}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/**
 * "Can AI crawlers read the site?": each brand domain's robots.txt read for each AI crawler (allowed,
 * blocked or partly, with the line that decides), its llms.txt, and what each crawler was served lately.
 */
export function AccessAudit() {
  const { workspaceId, project } = useBrand();
  const access = useQuery(accessQuery(workspaceId, project.id));
  return (
    <SectionCard
      id="access-audit"
      titleId="access-audit-title"
      title="Can AI crawlers read the site?"
      description={
        <>
          A site's robots.txt file tells crawlers which pages they may read. Here it is read for each AI crawler, as the
          crawler reads it, with the line that decides; then what each crawler was served in the last 7 days, from the
          logs (errors keep pages out of answers too).
        </>
      }
      contentClassName="grid gap-6"
    >
      <QueryState
        query={access}
        loading="Reading the site's robots.txt… (the first time takes a few seconds)"
        error="The access audit could not be loaded"
      />
      {access.data?.domains.map((domain) => (
        <DomainAudit key={domain.domain} domain={domain} />
      ))}
    </SectionCard>
  );
}
