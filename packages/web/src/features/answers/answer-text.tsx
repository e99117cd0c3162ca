import type { Project } from "@sightline/sdk";
import { useMemo } from "react";
import type { MentionAt, NameGroup } from "../../lib/highlight.ts";
import { renderAnswer, renderAnswerAt } from "../../lib/markdown.ts";

function nameGroups(project: Project): NameGroup[] {
  return [
    { kind: "brand", name: project.name, terms: project.aliases },
    ...project.competitors.map((c) => ({ kind: "competitor" as const, name: c.name, terms: c.aliases })),
  ];
}

/** The legend of the highlights: the brand in one style, its competitors in another. */
export function MentionLegend({ project }: { project: Project }) {
  return (
    <ul className="flex flex-wrap items-center gap-2 text-xs" aria-label="Highlighted names">
      <li>
        <mark className="mention-brand">{project.name}</mark> <span className="text-muted-foreground">your brand</span>
      </li>
      {project.competitors.length > 0 && (
        <li>
          <mark className="mention-competitor">{project.competitors.map((c) => c.name).join(", ")}</mark>{" "}
          <span className="text-muted-foreground">competitors</span>
        </li>
      )}
    </ul>
  );
}

/** The answer as the engine wrote it: Markdown, sanitised, with the tracked names highlighted. */
export function AnswerText({ text, project }: { text: string; project: Project }) {
  const html = useMemo(() => renderAnswer(text, nameGroups(project)), [text, project]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderAnswer (lib/markdown.ts)
  return <div className="answer-prose" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The answer as the engine wrote it, with the tracked names highlighted where the server measured them. */
export function MeasuredAnswerText({ text, mentions }: { text: string; mentions: readonly MentionAt[] }) {
  const html = useMemo(() => renderAnswerAt(text, mentions), [text, mentions]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderAnswerAt (lib/markdown.ts)
  return <div className="answer-prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
