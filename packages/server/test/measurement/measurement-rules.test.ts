import { describe, expect, it } from "vitest";
import { AMBIGUOUS, ambiguousNames, compileProject, measureAnswer } from "../../src/services/measurement/measure.ts";
import { foldSameLength, normalizeTypography } from "../../src/services/measurement/normalize.ts";
import { detectLanguage } from "../../src/services/measurement/tone.ts";
import type { AnswerMeasure, BrandSpec, MeasuredProject } from "../../src/services/measurement/types.ts";

const spec = (name: string, aliases: string[] = [], extra: Partial<BrandSpec> = {}): BrandSpec => ({
  name,
  aliases,
  domains: [],
  ...extra,
});

function measure(project: MeasuredProject, text: string, prompt?: string): AnswerMeasure {
  return measureAnswer(compileProject(project), { text, citations: [], ...(prompt === undefined ? {} : { prompt }) });
}

function named(project: MeasuredProject, text: string, prompt?: string): string[] {
  const m = measure(project, text, prompt);
  return [m.brand, ...m.competitors].filter((b) => b.mentioned).map((b) => b.name);
}

const notes: MeasuredProject = {
  brand: spec("Notion", ["ノーション"]),
  competitors: [spec("Obsidian"), spec("Confluence"), spec("Monday.com"), spec("Asana")],
};
const airlines: MeasuredProject = {
  brand: spec("Delta Air Lines", ["Delta"]),
  competitors: [spec("United Airlines", ["United"]), spec("JetBlue")],
};
const retail: MeasuredProject = {
  brand: spec("Target"),
  competitors: [spec("Walmart"), spec("Costco"), spec("Amazon")],
};

describe("typography", () => {
  it("normalises curly quotes, hyphens, spaces, entities and full-width forms", () => {
    expect(
      normalizeTypography("L’Oréal AT&amp;T Peet&#39;s Ben &amp; Jerry&rsquo;s T\u2011Mobile a\u00a0b Ｔｅｓｌａ"),
    ).toBe("L'Oréal AT&T Peet's Ben & Jerry's T-Mobile a b Tesla");
  });

  it("folds one unit for one, so offsets carry over", () => {
    const text = normalizeTypography("Société Générale’s ÉCOLE — Straße");
    expect(foldSameLength(text)).toHaveLength(text.length);
    expect(foldSameLength(text)).toContain("societe generale's ecole");
  });

  it("finds names written with other typography", () => {
    const beauty: MeasuredProject = {
      brand: spec("L'Oréal"),
      competitors: [spec("Ben & Jerry's"), spec('Toys"R"Us'), spec("AT&T"), spec("T-Mobile"), spec("Tesla")],
    };
    const text = "L’Oréal, Ben &amp; Jerry’s, Toys“R”Us, AT&amp;T, T‑Mobile and Ｔｅｓｌａ all advertise.";
    expect(named(beauty, text)).toEqual(["L'Oréal", "Ben & Jerry's", 'Toys"R"Us', "AT&T", "T-Mobile", "Tesla"]);
  });
});

describe("scripts without spaces", () => {
  const cars: MeasuredProject = {
    brand: spec("Tesla", ["テスラ"]),
    competitors: [spec("BYD", ["比亚迪"]), spec("Hyundai")],
  };

  it("treats a change of script as a boundary and matches CJK names without spaces", () => {
    expect(named(cars, "人気なのはTesla、BYD、Hyundaiです。")).toEqual(["Tesla", "BYD", "Hyundai"]);
    expect(named(cars, "テスラは高いが、比亚迪的电池很好。")).toEqual(["Tesla", "BYD"]);
  });

  it("does not match a katakana name inside a longer katakana word", () => {
    const apple: MeasuredProject = { brand: spec("Apple", ["アップル"]), competitors: [] };
    expect(named(apple, "アップルパイの作り方です。")).toEqual([]);
    expect(named(apple, "アップルの新型iPhoneです。")).toEqual(["Apple"]);
  });

  it("still needs a boundary between Latin letters", () => {
    expect(named(cars, "Teslas and Hyundais are everywhere; TeslaBYD is not a word.")).toEqual([]);
  });
});

describe("names that are ordinary words", () => {
  it("do not count in idioms or in lower case", () => {
    expect(named(notes, "The notion of a second brain is popular.")).toEqual([]);
    expect(named(retail, "Know your target audience. Target audience research comes first.")).toEqual([]);
    expect(named(airlines, "Rice grows in the Mekong Delta. The United States has many deltas.")).toEqual([]);
    expect(named(retail, "The Amazon rainforest spans nine countries.")).toEqual([]);
    const misc: MeasuredProject = {
      brand: spec("Zoom"),
      competitors: [
        spec("Oracle"),
        spec("Apple"),
        spec("Close"),
        spec("Meta"),
        spec("Chase"),
        spec("Bash"),
        spec("Microsoft Teams", ["Teams"]),
      ],
    };
    const text =
      "Zoom in on the chart. The Oracle of Delphi spoke in riddles. An apple a day helps. " +
      "Close more deals with better notes. Write a meta description. Chase the highest rate. " +
      "Software teams love a party bash.";
    expect(named(misc, text)).toEqual([]);
  });

  it("count with capitalisation not explained by a sentence start", () => {
    expect(named(notes, "For a wiki, I would use Notion because pages nest freely.")).toEqual(["Notion"]);
    // A sentence start explains a capital; a verb after it, as after a subject, is some evidence.
    expect(named(notes, "Notion, in the end, holds up.")).toEqual([]);
  });

  it("count in a list of brands, near other tracked brands, or when the prompt asks about the kind of product", () => {
    expect(named(notes, "1. **Notion** - flexible\n2. **Obsidian** - local files\n3. **Confluence** - wikis")).toEqual([
      "Notion",
      "Obsidian",
      "Confluence",
    ]);
    expect(named(notes, "Notion works well here.", "Which note-taking apps are best?")).toEqual(["Notion"]);
    expect(named(notes, "Notion works well here.", "Is Notion good for a wiki?")).toEqual(["Notion"]);
    expect(named(retail, "Target, Walmart and Costco all sell it.")).toEqual(["Target", "Walmart", "Costco"]);
  });

  it("do not count when the prompt uses the word as a word", () => {
    const zoom: MeasuredProject = { brand: spec("Zoom"), competitors: [spec("Webex")] };
    expect(named(zoom, "Use the Zoom slider at the bottom right.", "How do I zoom in Word?")).toEqual([]);
  });

  it("keep working: metadata, Asanas, citizens, PowerShell, Monday morning, United States, e-mail and URL paths", () => {
    const many: MeasuredProject = {
      brand: spec("Meta"),
      competitors: [
        spec("Asana"),
        spec("Citizens Bank", ["Citizens"]),
        spec("Shell"),
        spec("Monday.com"),
        spec("United Airlines", ["United"]),
        spec("Notion"),
      ],
    };
    const text =
      "Metadata matters. Yoga Asanas help. Citizens of Rome. PowerShell scripts run. " +
      "On Monday morning, fly across the United States. Write to team@notion.so or read example.com/notion/pricing.";
    expect(named(many, text)).toEqual([]);
  });

  it("honours per-project exclusions and case-sensitive aliases", () => {
    const erp: MeasuredProject = {
      brand: spec("SAP SE", [], { case_sensitive_aliases: ["SAP"] }),
      competitors: [spec("Oracle")],
      exclusions: ["Oracle of Omaha"],
    };
    expect(named(erp, "Long days sap your energy. Buffett, the Oracle of Omaha, is famous.")).toEqual([]);
    expect(named(erp, "Compare SAP and Oracle for your ERP.")).toEqual(["SAP SE", "Oracle"]);
  });

  it("gives every brand a confidence, 0 when never named, and lists the ambiguous ones", () => {
    const m = measure(notes, "Notion works well here. Obsidian is an alternative.");
    expect(m.brand.confidence).toBeGreaterThanOrEqual(AMBIGUOUS.low);
    expect(m.brand.confidence).toBeLessThan(AMBIGUOUS.high);
    // "Obsidian" is a (rare) dictionary word: a subject's verb after it and a brand nearby make it sure.
    expect(m.competitors.find((c) => c.name === "Obsidian")?.confidence).toBeGreaterThanOrEqual(AMBIGUOUS.high);
    expect(m.competitors.find((c) => c.name === "Asana")?.confidence).toBe(0);
    expect(ambiguousNames(m)).toEqual(["Notion"]);
  });

  it("lets a judge's verdicts override the rules for the names it ruled on", () => {
    const compiled = compileProject(notes);
    const answer = { text: "Notion works well here. Obsidian is an alternative.", citations: [] };
    const verdicts = new Map([
      ["Notion", true],
      ["Obsidian", false],
    ]);
    const m = measureAnswer(compiled, answer, { verdicts, tone: -0.5 });
    expect(m.brand).toMatchObject({ mentioned: true, position: 1, sentiment: -0.5 });
    expect(m.competitors.find((c) => c.name === "Obsidian")).toMatchObject({ mentioned: false, position: null });
  });
});

describe("tone and stance", () => {
  const crm: MeasuredProject = { brand: spec("Acme"), competitors: [spec("HubSpot"), spec("Pipedrive")] };
  const tone = (text: string) => measure(crm, text).brand;

  it("reads the languages of the corpus", () => {
    const fold = (t: string) => foldSameLength(normalizeTypography(t));
    expect(detectLanguage(fold("Acme est le meilleur outil pour les équipes et il est simple."), null)).toBe("fr");
    expect(detectLanguage(fold("Acme ist das beste Werkzeug und die Preise sind fair."), null)).toBe("de");
    expect(detectLanguage(fold("Acme es la mejor herramienta para los equipos y es fácil."), null)).toBe("es");
    expect(detectLanguage(fold("Acmeはおすすめです。"), null)).toBe("ja");
    expect(detectLanguage(fold("Acme is the best."), "fr-FR")).toBe("fr");
  });

  it("scores positive, negative and neutral answers", () => {
    expect(tone("Acme is reliable and intuitive.").sentiment).toBeGreaterThan(0.1);
    expect(tone("Acme is buggy and overpriced.").sentiment).toBeLessThan(-0.1);
    expect(tone("Acme was founded in 2015 in Berlin.").sentiment).toBe(0);
    expect(tone("HubSpot is great.").sentiment).toBeNull();
  });

  it("flips within the scope of a negation", () => {
    expect(tone("Acme is not reliable.").sentiment).toBeLessThan(-0.1);
    expect(tone("Acme n'est pas fiable pour les équipes.").sentiment).toBeLessThan(-0.1);
    expect(tone("Acme ist nicht zuverlässig und die App ist langsam.").sentiment).toBeLessThan(-0.1);
    expect(tone("Acme no es fiable para los equipos.").sentiment).toBeLessThan(-0.1);
  });

  it("weighs the clause after a contrast word more", () => {
    expect(tone("Acme is powerful, but far too expensive.").sentiment).toBeLessThan(-0.1);
    expect(tone("Acme est cher, mais excellent et très fiable.").sentiment).toBeGreaterThan(0.1);
    expect(tone("Acme ist teuer, aber hervorragend.").sentiment).toBeGreaterThan(0.1);
    expect(tone("Acme es caro, pero excelente.").sentiment).toBeGreaterThan(0.1);
  });

  it("weighs a conceded clause less", () => {
    expect(tone("Acme is excellent, although its network is still limited.").sentiment).toBeGreaterThan(0.1);
    expect(
      tone("Acme obtiene muy buenas notas en seguridad, aunque su red de talleres es escasa.").sentiment,
    ).toBeGreaterThan(0.1);
    expect(tone("Acme is not only reliable but also fast.").sentiment).toBeGreaterThan(0.1);
  });

  it("strengthens with intensifiers", () => {
    const plain = tone("Acme is reliable, though slow.").sentiment ?? 0;
    const strong = tone("Acme is extremely reliable, though slow.").sentiment ?? 0;
    expect(strong).toBeGreaterThan(plain);
  });

  it("turns comparatives round for the brand after than", () => {
    expect(tone("HubSpot is cheaper and faster than Acme.").sentiment).toBeLessThan(-0.1);
    expect(tone("Acme is cheaper and faster than HubSpot.").sentiment).toBeGreaterThan(0.1);
  });

  it("follows a pronoun that refers back to the brand", () => {
    expect(tone("Acme launched in 2015. It is reliable and intuitive.").sentiment).toBeGreaterThan(0.1);
    expect(tone("Acme a été lancé en 2015. Il est fiable et rapide.").sentiment).toBeGreaterThan(0.1);
    // With another brand in the answer, a sentence that does not refer back is not about Acme…
    expect(tone("Acme launched in 2015, after HubSpot. Founders come and go. Reliable tools are rare.").sentiment).toBe(
      0,
    );
    // …but an answer that names no other tracked brand is about Acme throughout (issue 25).
    expect(tone("Acme launched in 2015. Users say support is slow and billing is confusing.").sentiment).toBeLessThan(
      -0.1,
    );
    expect(tone("Acme launched in 2015. Critics say the company is unreliable and overpriced.").sentiment).toBeLessThan(
      -0.1,
    );
    // Japanese drops the subject: the next sentence of the paragraph is still about the brand.
    expect(tone("Acmeは2015年に設立されました。使いやすく、評判が良いです。").sentiment).toBeGreaterThan(0.1);
  });

  it("reads Japanese, with negation after the word", () => {
    expect(tone("Acmeは使いやすいです。").sentiment).toBeGreaterThan(0.1);
    expect(tone("Acmeは使いやすくないです。").sentiment).toBeLessThan(-0.1);
  });

  it("tells recommended, warned and merely mentioned apart", () => {
    expect(tone("I recommend Acme for small agencies: it is the best choice.").stance).toBe("recommended");
    expect(tone("Avoid Acme if you need advanced forecasting.").stance).toBe("warned");
    expect(tone("Évitez Acme pour les grandes équipes.").stance).toBe("warned");
    expect(tone("Acme sollten Sie vermeiden.").stance).toBe("warned");
    expect(tone("Evite Acme si necesita informes avanzados para el equipo de ventas.").stance).toBe("warned");
    expect(tone("大企業ではAcmeは避けた方がよいです。").stance).toBe("warned");
    expect(tone("Acme was founded in 2015.").stance).toBe("mentioned");
    expect(tone("HubSpot is good.").stance).toBeNull();
  });
});

describe("issue 25: the kinds of error the outside set found", () => {
  const video: MeasuredProject = {
    brand: spec("Loom"),
    competitors: [spec("Vidyard"), spec("Brave"), spec("Nest"), spec("Tella")],
  };

  it("reads rare dictionary words in lower case, or going on as the word, as the word", () => {
    // "loom", "brave", "nest" are dictionary words whatever their frequency.
    expect(named(video, "Exams loom large this spring, and the birds nest early.")).toEqual([]);
    expect(named(video, "Brave the queue early. Nest of vipers, that office.")).toEqual([]);
    expect(named(video, "Loom of the old mill still stands.")).toEqual([]);
    // As the brand: mid-sentence capital, or a subject's verb after it.
    expect(named(video, "For async updates I would record with Loom.")).toEqual(["Loom"]);
    expect(named(video, "Loom records your screen and camera at once.")).toEqual(["Loom"]);
  });

  it("does not count a word capitalised as a word (days, German nouns after an article)", () => {
    const work: MeasuredProject = { brand: spec("monday.com", ["Monday"]), competitors: [spec("Wrike")] };
    expect(named(work, "Ship it on Monday and review it on Friday.", "Which project tools are best?")).toEqual([]);
    expect(named(work, "Monday offers boards and automations; Wrike is stronger on Gantt charts.")).toEqual([
      "monday.com",
      "Wrike",
    ]);
    const german: MeasuredProject = {
      brand: spec("Stern"),
      competitors: [spec("Spiegel"), spec("Focus")],
      language: "de",
    };
    expect(named(german, "Am Abend sieht man den hellen Stern über dem Dorf.")).toEqual([]);
    expect(named(german, "Stern bietet Reportagen, der Spiegel mehr Politik.")).toEqual(["Stern", "Spiegel"]);
  });

  it("counts brands named side by side in a comparison, even when both are words", () => {
    const phones: MeasuredProject = { brand: spec("Nothing"), competitors: [spec("Apple"), spec("Honor")] };
    expect(named(video, "Brave is fine for short clips; Nest is more comfortable for long recordings.")).toEqual([
      "Brave",
      "Nest",
    ]);
    expect(named(phones, "Honour your commitments and nothing else matters.")).toEqual([]);
  });

  it("keeps a sure name next to a tracked name used only inside ordinary words", () => {
    const seo: MeasuredProject = {
      brand: spec("Yoast SEO", ["Yoast"]),
      competitors: [spec("Meta"), spec("Semrush"), spec("Rank Math")],
    };
    expect(named(seo, "Write a meta description for each page; Semrush audits the metadata for you.")).toEqual([
      "Semrush",
    ]);
  });

  it("reads tone written as a verdict's label, as negated complaints, and as reported complaints", () => {
    const plumbers: MeasuredProject = { brand: spec("Pipewell"), competitors: [spec("DrainPro")] };
    const tone = (text: string) => measure(plumbers, text).brand;
    const pick = tone("Both fix leaks the same day.\n\n**Our recommendation:** Pipewell, for its fixed prices.");
    expect(pick.stance).toBe("recommended");
    expect(pick.sentiment).toBeGreaterThan(0.1);
    expect(tone("**Verdict:** DrainPro. Pipewell is also around.").stance).not.toBe("recommended");
    expect(tone("Pipewell is not bad at all, and there are no complaints about its prices.").sentiment).toBeGreaterThan(
      0.1,
    );
    expect(
      tone("Pipewell covers the whole city. Customers report call-out fees and several complaints about delays.")
        .sentiment,
    ).toBeLessThan(-0.1);
  });
});
