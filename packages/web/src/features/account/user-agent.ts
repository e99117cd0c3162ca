/** "Chrome on macOS" from a User-Agent header: enough to recognise one's own devices, nothing more. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = [
    [/Edg(e|A|iOS)?\//, "Edge"],
    [/OPR\/|Opera/, "Opera"],
    [/Firefox\/|FxiOS/, "Firefox"],
    [/Chrome\/|CriOS/, "Chrome"],
    [/Safari\//, "Safari"],
    [/curl\//, "curl"],
  ] as const;
  const system = [
    [/iPhone|iPad|iPod/, "iOS"],
    [/Android/, "Android"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/Windows/, "Windows"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ] as const;
  const name = browser.find(([pattern]) => pattern.test(userAgent))?.[1];
  const os = system.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (name && os) return `${name} on ${os}`;
  return name ?? os ?? "Unknown device";
}
