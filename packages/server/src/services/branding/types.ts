/**
 * How a workspace presents what it sends to its clients: reports (HTML and PDF), their shared
 * links and its e-mails carry the workspace's name, logo and colours, and never "Sightline" when
 * the workspace asks so (issue 24).
 */
export interface Branding {
  /** The name reports, share pages and e-mails are signed with: the workspace's name unless set. */
  name: string;
  /** The logo as a `data:image/png;base64,…` or `data:image/jpeg;base64,…` URL, or null for none. */
  logo: string | null;
  /** Headings, the brand's own bars and lines: `#rrggbb`. */
  primary: string;
  /** Highlights and links: `#rrggbb`. */
  accent: string;
  /** False: "Sightline" appears nowhere on what is sent (no "made with", no producer line). */
  show_sightline: boolean;
}

/** What a workspace that set nothing looks like. */
export const DEFAULT_BRANDING: Branding = {
  name: "Sightline",
  logo: null,
  primary: "#2456d6",
  accent: "#d2691e",
  show_sightline: true,
};
