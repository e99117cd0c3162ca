/** ISO 3166-1 alpha-2, officially assigned codes. */
const COUNTRIES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV " +
    "BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES " +
    "ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE " +
    "IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY " +
    "MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU " +
    "NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM " +
    "SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE " +
    "VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

export type Checked = { ok: true; value: string } | { ok: false; issue: string };

export function checkCountry(input: string): Checked {
  const code = input.trim().toUpperCase();
  if (COUNTRIES.has(code)) return { ok: true, value: code };
  if (code === "UK") return { ok: false, issue: "is not an ISO 3166-1 code; the United Kingdom is GB" };
  return { ok: false, issue: "must be an ISO 3166-1 alpha-2 country code such as US or DE" };
}

const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/** A BCP 47 tag whose language is a known one; returned in canonical case (`en-US`). */
export function checkLanguage(input: string): Checked {
  const fail: Checked = { ok: false, issue: "must be a BCP 47 language tag such as en or pt-BR" };
  const raw = input.trim();
  if (raw.length === 0 || raw.length > 35) return fail;
  let canonical: string;
  try {
    const [first] = Intl.getCanonicalLocales(raw);
    if (first === undefined) return fail;
    canonical = first;
  } catch {
    return fail;
  }
  const primary = canonical.split("-")[0] ?? "";
  if (languageNames.of(primary) === undefined) return fail;
  return { ok: true, value: canonical };
}

/** A language's or country's name in English (`DE` → Germany), or the code itself when it has none. */
export function displayName(code: string, type: "language" | "region"): string {
  try {
    return new Intl.DisplayNames("en", { type }).of(code) ?? code;
  } catch {
    return code;
  }
}
