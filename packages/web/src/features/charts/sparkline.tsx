import { cn } from "../../lib/utils.ts";

/**
 * A small trend line drawn as plain SVG (no chart library: it sits in lists and table cells). It is
 * decoration: the caller says the same in words next to it. Null values leave gaps.
 */
export function Sparkline({
  values,
  max,
  className,
  width = 96,
  height = 28,
}: {
  values: readonly (number | null)[];
  /** The top of the scale; the largest value when absent. */
  max?: number;
  className?: string;
  width?: number;
  height?: number;
}) {
  const top = max ?? Math.max(0, ...values.map((v) => v ?? 0));
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const y = (value: number) => (top > 0 ? height - 2 - (value / top) * (height - 4) : height - 2);
  const runs: string[] = [];
  let current: string[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (current.length > 0) runs.push(current.join(" "));
      current = [];
      return;
    }
    current.push(`${(index * step).toFixed(1)},${y(value).toFixed(1)}`);
  });
  if (current.length > 0) runs.push(current.join(" "));
  const dots = values
    .map((value, index) => ({ value, index }))
    .filter(({ value, index }) => value !== null && values[index - 1] == null && values[index + 1] == null);
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className={cn("shrink-0 overflow-visible text-primary", className)}
      aria-hidden="true"
      focusable="false"
    >
      <line x1="0" x2={width} y1={height - 1} y2={height - 1} className="stroke-border" strokeWidth="1" />
      {runs.map((points) => (
        <polyline
          key={points}
          points={points}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      ))}
      {dots.map(({ value, index }) => (
        <circle key={index} cx={index * step} cy={y(value ?? 0)} r="1.75" fill="currentColor" />
      ))}
    </svg>
  );
}
