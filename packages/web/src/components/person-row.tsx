import type { ReactNode } from "react";
import { Badge } from "./ui/badge.tsx";
import { TableCell, TableRow } from "./ui/table.tsx";
import { DateText } from "./when.tsx";

/**
 * One person in a table of people (a workspace's members, an agency's staff): name, e-mail, role,
 * since when, and what may be done about them. On a phone the e-mail, the date and the actions sit
 * under the name.
 */
export function PersonRow({
  person,
  isSelf,
  role,
  actions,
}: {
  person: { name: string; email: string; joined_at: string };
  isSelf: boolean;
  role: ReactNode;
  actions: ReactNode;
}) {
  return (
    <TableRow>
      <TableCell className="md:min-w-36">
        <span className="font-medium">{person.name}</span>
        {isSelf && (
          <Badge variant="muted" className="ml-2">
            You
          </Badge>
        )}
        <div className="grid gap-2 md:hidden">
          <span className="text-xs wrap-anywhere text-muted-foreground">
            {person.email} · joined <DateText value={person.joined_at} />
          </span>
          {actions && <div>{actions}</div>}
        </div>
      </TableCell>
      <TableCell wide>{person.email}</TableCell>
      <TableCell className="align-top md:align-middle">{role}</TableCell>
      <TableCell wide className="whitespace-nowrap">
        <DateText value={person.joined_at} />
      </TableCell>
      <TableCell wide className="text-right whitespace-nowrap">
        {actions}
      </TableCell>
    </TableRow>
  );
}
