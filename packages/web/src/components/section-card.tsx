import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card.tsx";

/**
 * A card named by its title (the region screen readers list), with a line under the title, its
 * actions on the right (or under it on a phone) and its content.
 */
export function SectionCard({
  id,
  titleId,
  title,
  description,
  actions,
  contentClassName,
  children,
}: {
  /** Of the card, for links to it (`/settings#api-keys`). */
  id?: string;
  titleId: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  contentClassName?: string;
  children?: ReactNode;
}) {
  return (
    <Card id={id} aria-labelledby={titleId}>
      <CardHeader>
        <div>
          <CardTitle id={titleId}>{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        {actions}
      </CardHeader>
      {children ? <CardContent className={contentClassName}>{children}</CardContent> : null}
    </Card>
  );
}
