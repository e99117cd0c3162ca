const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises a domain as users type it: `https://www.Acme.com/`, `acme.com.` and `ACME.COM`
 * all become `acme.com`. Internationalised names become punycode. Returns null for anything
 * that is not a public-looking host name (IP addresses, single labels, paths after a bare name).
 */
export function normalizeDomain(input: string): string | null {
  const raw = input.trim();
  if (raw.length === 0 || raw.length > 300) return null;
  let host: string;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
      const url = new URL(raw);
      if (url.protocol !== "http:" && url.protocol !== "https:") return null;
      if (url.username !== "" || url.password !== "") return null;
      host = url.hostname;
    } else {
      if (/[/?#@:\s]/.test(raw)) return null;
      host = new URL(`http://${raw}`).hostname;
    }
  } catch {
    return null;
  }
  host = host.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("www.")) host = host.slice(4);
  if (host.length > 253) return null;
  const labels = host.split(".");
  if (labels.length < 2) return null;
  if (!labels.every((label) => LABEL.test(label))) return null;
  const tld = labels[labels.length - 1] ?? "";
  if (/^\d+$/.test(tld)) return null; // an IPv4 address
  return host;
}

/** Whether `host` is `domain` or one of its subdomains (`blog.acme.com` is on `acme.com`). */
export function hostIsOnDomain(host: string, domain: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^www\./, "");
  return h === domain || h.endsWith(`.${domain}`);
}
