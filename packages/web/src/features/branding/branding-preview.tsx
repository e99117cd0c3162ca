/** WCAG's relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White or dark text on a colour, whichever reads better (as the e-mails choose). */
function textOn(background: string): string {
  const l = luminance(background);
  return 1.05 / (l + 0.05) >= (l + 0.05) / (luminance("#1c2330") + 0.05) ? "#ffffff" : "#1c2330";
}

/**
 * What a client sees at the top of a report or an e-mail, drawn from the form as it is now: the
 * logo and the name over a rule in the main colour, a button in it, a highlight in the other colour.
 */
export function BrandingPreview({
  name,
  logo,
  primary,
  accent,
  showSightline,
}: {
  name: string;
  logo: string | null;
  primary: string;
  accent: string;
  showSightline: boolean;
}) {
  return (
    <figure className="grid content-start gap-1.5 self-start">
      <figcaption className="text-sm font-medium">Preview</figcaption>
      {/* Fixed light colours: what is sent is light whatever the dashboard's theme. */}
      <div className="overflow-hidden rounded-md border bg-white p-4 text-[#1c2330]">
        <div className="flex min-w-0 items-center gap-3 border-b-[3px] pb-3" style={{ borderColor: primary }}>
          {logo !== null && <img src={logo} alt="" className="max-h-10 max-w-[45%] shrink-0 object-contain" />}
          <span className="min-w-0 truncate font-bold" style={{ color: primary }}>
            {name}
          </span>
        </div>
        <p className="mt-3 text-sm font-semibold">Acme CRM in the week of 2 March: visibility 47%.</p>
        <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
          <span className="rounded-md px-3 py-1.5" style={{ background: primary, color: textOn(primary) }}>
            Open the report
          </span>
          {/* A highlight under dark text: a light accent stays readable. */}
          <span className="border-b-[3px] pb-0.5" style={{ borderColor: accent }}>
            Highlights
          </span>
        </div>
        {showSightline && <p className="mt-3 text-xs text-[#6b7280]">Made with Sightline</p>}
      </div>
    </figure>
  );
}
