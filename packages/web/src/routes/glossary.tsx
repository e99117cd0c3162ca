import { Link } from "@tanstack/react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card.tsx";
import { GLOSSARY, METRIC_IDS } from "../generated/glossary.ts";
import { useTitle } from "../lib/use-title.ts";

/** The parts of a definition, in the order a reader asks them. */
const PARTS = [
  ["counts", "What is counted"],
  ["scale", "Scale"],
  ["n", "n"],
  ["interval", "Interval"],
  ["significance", "Significance"],
] as const;

/**
 * Every figure Sightline shows, defined once (issue 24): the words of the server's glossary, which
 * the reports, e-mails, the API reference and the MCP tools also read. Each figure's hint in the
 * dashboard links to its entry here (`/glossary#visibility`).
 */
export function GlossaryPage() {
  useTitle("Glossary");
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Glossary</h1>
        <p className="text-sm text-muted-foreground">
          Every figure Sightline shows, with one name, one scale and one definition wherever you meet it: on these
          screens, in reports, e-mails and alerts, and in the API.
        </p>
      </div>
      <nav aria-label="Figures">
        <ul className="flex flex-wrap gap-2">
          {METRIC_IDS.map((id) => (
            <li key={id}>
              <Link
                to="/glossary"
                hash={id}
                className="inline-flex rounded-md border bg-card px-2.5 py-1 text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                {GLOSSARY[id].name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {METRIC_IDS.map((id) => {
        const definition = GLOSSARY[id];
        return (
          // Below the sticky header when a hint's link scrolls it into view.
          <Card key={id} id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20">
            <CardHeader>
              <div className="min-w-0">
                <CardTitle id={`${id}-title`}>{definition.name}</CardTitle>
                <CardDescription>{definition.hint}</CardDescription>
              </div>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
                {PARTS.map(([part, label]) => (
                  <div key={part} className="contents">
                    <dt className="text-muted-foreground">{label}</dt>
                    <dd className="-mt-2 sm:mt-0">{definition[part]}</dd>
                  </div>
                ))}
                <div className="contents">
                  <dt className="text-muted-foreground">In the API</dt>
                  <dd className="-mt-2 flex flex-wrap gap-1.5 sm:mt-0">
                    {definition.fields.map((field) => (
                      <code key={field} className="rounded bg-muted px-1.5 py-0.5 text-xs wrap-anywhere">
                        {field}
                      </code>
                    ))}
                  </dd>
                </div>
              </dl>
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
