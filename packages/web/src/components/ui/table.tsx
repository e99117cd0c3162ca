import type { ComponentProps } from "react";
import { cn } from "../../lib/utils.ts";

/** A table that scrolls sideways inside its card on narrow screens instead of overflowing the page. */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("border-b transition-colors", className)} {...props} />;
}

/** `wide`: a column shown from tablet width up; below it, its content sits under the row's first cell. */
type Wide = { wide?: boolean };
const WIDE = "hidden md:table-cell";

/** `srOnly`: a heading for screen readers only, e.g. "Actions" over a column of buttons. */
export function TableHead({
  className,
  wide,
  srOnly,
  children,
  ...props
}: ComponentProps<"th"> & Wide & { srOnly?: boolean }) {
  return (
    <th
      scope="col"
      className={cn(
        "h-10 px-3 text-left align-middle text-xs font-medium whitespace-nowrap text-muted-foreground first:pl-0 last:pr-0",
        wide && WIDE,
        className,
      )}
      {...props}
    >
      {srOnly ? <span className="sr-only">{children}</span> : children}
    </th>
  );
}

export function TableCell({ className, wide, ...props }: ComponentProps<"td"> & Wide) {
  return <td className={cn("px-3 py-2.5 align-middle first:pl-0 last:pr-0", wide && WIDE, className)} {...props} />;
}
