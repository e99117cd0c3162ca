import { SheetIcon } from "lucide-react";
import { type CsvCell, downloadCsv } from "../lib/csv.ts";
import { Button } from "./ui/button.tsx";

/** "CSV": downloads the figures behind a chart or a table, the rows made when it is clicked. */
export function CsvButton({
  label,
  file,
  rows,
}: {
  /** Its accessible name: "Download the leaderboard as CSV". */
  label: string;
  file: string;
  rows: () => readonly (readonly CsvCell[])[];
}) {
  return (
    <Button variant="outline" size="sm" onClick={() => downloadCsv(rows(), file)} aria-label={label}>
      <SheetIcon aria-hidden="true" />
      CSV
    </Button>
  );
}
