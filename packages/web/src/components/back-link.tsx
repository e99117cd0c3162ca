import { createLink } from "@tanstack/react-router";
import { ChevronLeftIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "../lib/utils.ts";

function BackAnchor({ className, children, ...props }: ComponentProps<"a">) {
  return (
    <a
      className={cn(
        "inline-flex w-fit items-center gap-1 rounded-md text-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
        className,
      )}
      {...props}
    >
      <ChevronLeftIcon className="size-4" aria-hidden="true" />
      {children}
    </a>
  );
}

/** "‹ All brands": the way back up from a page to the list it belongs to (a router link). */
export const BackLink = createLink(BackAnchor);
