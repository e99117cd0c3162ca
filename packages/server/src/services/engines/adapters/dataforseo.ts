import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import { cleanSearches } from "../searches.ts";
import {
  type EngineAdapter,
  type EngineOutcome,
  type EngineQuery,
  type EngineReach,
  failure,
  withPreamble,
} from "../types.ts";
import { reportedCost, usageOf } from "../usage.ts";

export interface DataForSeoProduct {
  /** The engine's name: `chatgpt_web`, `perplexity_web` or `gemini_web`. */
  name: string;
  /** The product's segment in DataForSEO's paths: `/v3/ai_optimization/<product>/llm_scraper/…`. */
  product: "chat_gpt" | "perplexity" | "gemini";
  /** Reported when a result names no model. */
  model: string;
}

/** DataForSEO's "Ok." at the request and at the task level. */
const OK = 20000;

/**
 * The status codes of DataForSEO's errors appendix after which the same task may succeed: an
 * internal search-engine error (40101), a failed execution to resubmit (40103), the per-minute
 * rate limit (40202), too many simultaneous queries (40209), a task still handed or queued
 * (40601, 40602). Every 5xxxx code is theirs and passing, except "Not Implemented" (50100).
 * Everything else (credentials, balance, cost limit, an invalid field or path) is final.
 */
const RETRYABLE_CODES = new Set([40101, 40103, 40202, 40209, 40601, 40602]);

function retryableCode(code: number): boolean {
  return RETRYABLE_CODES.has(code) || (code >= 50000 && code < 60000 && code !== 50100);
}

/**
 * ISO 3166-1 alpha-2 and numeric codes. DataForSEO's locations are Google Ads geo targets, whose
 * country targets are 2000 + the ISO numeric code (United States 2840, Germany 2276).
 */
const ISO_NUMERIC = new Map(
  (
    "AD020 AE784 AF004 AG028 AI660 AL008 AM051 AO024 AQ010 AR032 AS016 AT040 AU036 AW533 AX248 AZ031 BA070 " +
    "BB052 BD050 BE056 BF854 BG100 BH048 BI108 BJ204 BL652 BM060 BN096 BO068 BQ535 BR076 BS044 BT064 BV074 " +
    "BW072 BY112 BZ084 CA124 CC166 CD180 CF140 CG178 CH756 CI384 CK184 CL152 CM120 CN156 CO170 CR188 CU192 " +
    "CV132 CW531 CX162 CY196 CZ203 DE276 DJ262 DK208 DM212 DO214 DZ012 EC218 EE233 EG818 EH732 ER232 ES724 " +
    "ET231 FI246 FJ242 FK238 FM583 FO234 FR250 GA266 GB826 GD308 GE268 GF254 GG831 GH288 GI292 GL304 GM270 " +
    "GN324 GP312 GQ226 GR300 GS239 GT320 GU316 GW624 GY328 HK344 HM334 HN340 HR191 HT332 HU348 ID360 IE372 " +
    "IL376 IM833 IN356 IO086 IQ368 IR364 IS352 IT380 JE832 JM388 JO400 JP392 KE404 KG417 KH116 KI296 KM174 " +
    "KN659 KP408 KR410 KW414 KY136 KZ398 LA418 LB422 LC662 LI438 LK144 LR430 LS426 LT440 LU442 LV428 LY434 " +
    "MA504 MC492 MD498 ME499 MF663 MG450 MH584 MK807 ML466 MM104 MN496 MO446 MP580 MQ474 MR478 MS500 MT470 " +
    "MU480 MV462 MW454 MX484 MY458 MZ508 NA516 NC540 NE562 NF574 NG566 NI558 NL528 NO578 NP524 NR520 NU570 " +
    "NZ554 OM512 PA591 PE604 PF258 PG598 PH608 PK586 PL616 PM666 PN612 PR630 PS275 PT620 PW585 PY600 QA634 " +
    "RE638 RO642 RS688 RU643 RW646 SA682 SB090 SC690 SD729 SE752 SG702 SH654 SI705 SJ744 SK703 SL694 SM674 " +
    "SN686 SO706 SR740 SS728 ST678 SV222 SX534 SY760 SZ748 TC796 TD148 TF260 TG768 TH764 TJ762 TK772 TL626 " +
    "TM795 TN788 TO776 TR792 TT780 TV798 TW158 TZ834 UA804 UG800 UM581 US840 UY858 UZ860 VA336 VC670 VE862 " +
    "VG092 VI850 VN704 VU548 WF876 WS882 YE887 YT175 ZA710 ZM894 ZW716"
  )
    .split(" ")
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))] as const),
);

/** DataForSEO requires a location: without a country, the answer is asked from the United States. */
function locationCode(country: string | null): number {
  return 2000 + (ISO_NUMERIC.get((country ?? "US").toUpperCase()) ?? 840);
}

/** DataForSEO's language codes are ISO 639-1; English when the analysis names no language. */
function languageCode(language: string | null): string {
  return (language?.split("-")[0] ?? "en").toLowerCase();
}

/**
 * DataForSEO decodes `%##` and `+` in a keyword; escaped, the prompt arrives as typed ("C++" stays
 * "C++", not "C  ").
 */
function keyword(prompt: string): string {
  return prompt.replace(/%/g, "%25").replace(/\+/g, "%2B");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sources(value: unknown): SourceCitation[] {
  const out: SourceCitation[] = [];
  for (const source of Array.isArray(value) ? value : []) {
    if (!isObject(source) || typeof source.url !== "string" || out.some((c) => c.url === source.url)) continue;
    out.push({ url: source.url, title: typeof source.title === "string" ? source.title : null });
  }
  return out;
}

/** The answer's markdown, or its items' when the result has none. */
function answerText(result: Record<string, unknown>): string {
  if (typeof result.markdown === "string" && result.markdown.trim() !== "") return result.markdown.trim();
  const items = Array.isArray(result.items) ? result.items : [];
  return items
    .flatMap((item) => (isObject(item) && typeof item.markdown === "string" ? [item.markdown] : []))
    .join("\n\n")
    .trim();
}

/**
 * `chatgpt_web`, `perplexity_web` and `gemini_web`: the answers a person gets in ChatGPT,
 * Perplexity and Gemini's own interfaces, captured live by DataForSEO's LLM Scraper
 * (`POST /v3/ai_optimization/<product>/llm_scraper/live/advanced`, ADR 0022). The key is the
 * DataForSEO API login and password, `login:password`, sent as HTTP Basic credentials.
 * DataForSEO answers HTTP 200 for most errors and says what happened in `status_code`, for the
 * request and for each task: those codes are mapped to failures here.
 */
export class DataForSeoAdapter implements EngineAdapter {
  readonly name: string;
  /** A scraped page: a persona is typed before the prompt, the country is `location_code`, no follow-up is scraped. */
  readonly reach: EngineReach = { persona: "preamble", country: "location_code", conversation: "none" };
  readonly #authorization: string | null;
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #model: string;

  constructor(settings: CredentialedSettings, timeoutMs: number, product: DataForSeoProduct) {
    this.name = product.name;
    this.#authorization = settings.apiKey.includes(":")
      ? `Basic ${Buffer.from(settings.apiKey, "utf8").toString("base64")}`
      : null;
    const base = (settings.baseUrl ?? "https://api.dataforseo.com").replace(/\/+$/, "");
    this.#url = `${base}/v3/ai_optimization/${product.product}/llm_scraper/live/advanced`;
    this.#timeoutMs = timeoutMs;
    this.#model = product.model;
  }

  #codeFailure(code: number, message: unknown): EngineOutcome {
    const text = typeof message === "string" ? message.slice(0, 300) : "no message";
    return failure(`${this.name}: DataForSEO status ${code}: ${text}`, { retryable: retryableCode(code) });
  }

  async #post(query: EngineQuery, signal: AbortSignal): Promise<unknown> {
    const response = await fetch(this.#url, {
      method: "POST",
      headers: { authorization: this.#authorization ?? "", "content-type": "application/json" },
      body: JSON.stringify([
        {
          keyword: keyword(withPreamble(query)),
          location_code: locationCode(query.country),
          language_code: languageCode(query.language),
        },
      ]),
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.#timeoutMs)]),
    });
    const body = await response.text();
    if (!response.ok) {
      let message = body.slice(0, 300);
      try {
        const parsed: unknown = JSON.parse(body);
        if (isObject(parsed) && typeof parsed.status_message === "string") message = parsed.status_message;
      } catch {
        // not JSON
      }
      throw Object.assign(new Error(message), { status: response.status, headers: response.headers });
    }
    return JSON.parse(body);
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    if (this.#authorization === null) {
      return failure(`${this.name}: the DataForSEO key must be the API login and password, as login:password`);
    }
    let body: unknown;
    try {
      body = await this.#post(query, signal);
    } catch (error) {
      if (error instanceof SyntaxError) return failure(`${this.name} answered an unreadable body`);
      return toFailure(this.name, error, signal.aborted);
    }
    if (!isObject(body) || typeof body.status_code !== "number")
      return failure(`${this.name} answered an unreadable body`);
    if (body.status_code !== OK) return this.#codeFailure(body.status_code, body.status_message);
    const task = Array.isArray(body.tasks) ? body.tasks[0] : undefined;
    if (!isObject(task) || typeof task.status_code !== "number")
      return failure(`${this.name} answered an unreadable body`);
    if (task.status_code !== OK) return this.#codeFailure(task.status_code, task.status_message);
    const result = Array.isArray(task.result) ? task.result[0] : undefined;
    if (!isObject(result)) return failure(`${this.name} answered without a result`);
    const text = answerText(result);
    if (text === "") return failure(`${this.name} answered with no text`);
    return {
      ok: true,
      answer: {
        text,
        model: typeof result.model === "string" && result.model !== "" ? result.model : this.#model,
        citations: sources(result.sources),
        // ChatGPT's scraper reports the searches it ran; Perplexity's and Gemini's report none.
        searches: cleanSearches(Array.isArray(result.fan_out_queries) ? result.fan_out_queries : []),
        // DataForSEO prices each task itself, in USD.
        usage: usageOf({ searchCalls: 1, costUsd: reportedCost(task.cost) ?? reportedCost(body.cost) }),
      },
    };
  }
}
