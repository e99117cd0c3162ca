/**
 * The tone lexicon per language (DESIGN.md §7): evaluative words and phrases of product answers,
 * as regular-expression fragments over folded text (lower case, no accents), each with a weight in
 * [-3, 3]. Why hand-written: docs/adr/0019-measurement-accuracy.md (the registry's multilingual
 * lexicons are machine translations of AFINN without product vocabulary, and their Japanese list is
 * mostly untranslated English). Negators, intensifiers, contrast words, comparative markers and the
 * words that refer back to a brand are per language too.
 */
export type Language = "en" | "fr" | "de" | "es" | "ja" | "zh";

export interface LanguageRules {
  /** [pattern, weight]; weights ≥ 2 are strong opinions. */
  words: [string, number][];
  negators: string;
  intensifiers: string;
  /** Words after which a clause weighs more ("but"). */
  contrast: string;
  /** Words after which a clause weighs less: a concession ("although", "aunque"). */
  concessive: string;
  /** "than": a comparative followed by it and a brand is the other way round for that brand. */
  than: string;
  /** Words before a brand that make it only the object of a comparison ("close to X"). */
  compared: string;
  /** Sentence openings that refer back to the brand named just before. */
  referents: string;
  /** Nouns that refer back to the brand wherever they stand in the next sentence ("the company"). */
  nouns: string;
  /** Sentence openings that refer to all the brands named ("Both are strong"). */
  both: string;
  /** A clear warning against the brand. */
  warn: string;
  /** A clear recommendation of the brand. */
  recommend: string;
  /**
   * Labels that open a line and give a verdict on the brand named after them ("**Recommendation:**
   * choose X", "Fazit: X", "結論：X"): `recommend` for a pick, `warn` for a warning.
   */
  labels: { recommend: string; warn: string };
}

const EN: LanguageRules = {
  words: [
    [
      "best|best-in-class|class-leading|award-winning|top-rated|excellent|outstanding|exceptional|superb|fantastic|amazing|brilliant|stellar",
      3,
    ],
    [
      "great|strong(?:er|est)?|solid|reliable|robust|powerful|intuitive|polished|impressive|generous|seamless(?:ly)?",
      2,
    ],
    [
      "good|better|nice|useful|helpful|handy|easy|easier|easiest|simple|simpler|fast|faster|quick|quicker|affordable|cheap(?:er|est)?|inexpensive|flexible|capable|effective|efficient|accurate|clean|friendly|user-friendly|well-designed|well-built|smooth|secure|safe(?:r|st)?|trusted|trustworthy|popular|beloved|loved|praised|favou?rite|preferred|leading|renowned|premium|innovative|versatile|scalable|responsive|rich|ideal|perfect|elegant|comprehensive|competitive|valuable|transparent|dependable|durable|comfortable|delicious|tasty|fresh|consistent|convenient|accessible|standout|stands? out|shines?|excels?|thriv(?:e|es|ing)|impress(?:es|ed)?|delivers?|winner|wins?|won|worth(?:while| it| the)|value for money|good value|great value|hard to beat|tough to beat|well worth|well regarded|well-regarded|highly rated|go-to|top pick|first choice|safe bet|solid choice|strong choice|pleasure|love|loves|enjoy(?:s|ed)?|recommend(?:s|ed)?|growth|growing|gains?|record (?:profits?|sales|revenue)|improved|improving|improves|upgrade|benefits?|advantages?|strengths?|pros|perks?|succes(?:s|sful)|wins?|works (?:well|great)|work well|well suited|well-suited|suits|strongest|safest|ahead|improved dramatically|comfortabl[ey]|investment-grade|known for|favou?red|appeals?|deeper|practical|straightforward|familiar|mature|proven|established|long-established|customi[sz]able|reasonable|fair|generous free|free plan|free tier|sharp|crisp|refreshing|cleaner|lightweight|cushioned|roomy|sturdy|iconic|dominant|dominates|dominated|leads|leader|most valuable|profitable|profitability|record|thriving|booming|expanding|soaring|rewarding|stable|stability|rock-solid|top-notch|first-rate|world-class|top-tier|high-quality|must-have|essential|indispensable|reduces? (?:the )?risk|lower(?:s)? (?:the )?risk|close behind|close second|forgiving",
      1,
    ],
    [
      "expensive|pricey|costly|overpriced|steep|bloated|clunky|buggy|glitchy|unreliable|unstable|unintuitive|frustrat(?:ing|ed|ion)|confusing|cumbersome|mediocre|disappointing|lackluster|lacklustre|outdated|dated|slow(?:er)?|sluggish|awkward|limited|limiting|lacks?|lacking|missing|weak(?:er|ness|nesses)?|poor(?:ly)?|bad|worse|complicated|complex|difficult|hard to|harder|steep learning curve|learning curve|overkill|overwhelming|restrictive|rigid|inconsistent|inferior|lagging|lags|behind|struggl(?:e|es|ed|ing)|fail(?:s|ed|ing|ure|ures)?|problems?|issues with|known issues|complaints?|complain(?:s|ed)?|concerns?|critici[sz](?:ed|m|es)|drawbacks?|downsides?|cons|catch|caveat|hidden fees?|fees|surcharges?|delays?|delayed|outages?|downtime|crash(?:es|ed)?|bugs?|errors?|losses|lost|loss|declin(?:e|es|ed|ing)|falling|fell|layoffs?|recalls?|fines?|fined|penalt(?:y|ies)|lawsuits?|su(?:ed|ing)|scandals?|controvers(?:y|ies|ial)|breach(?:es)?|hack(?:ed)?|leak(?:s|ed)?|fraud (?:charges?|allegations?|case)|risk(?:y|s)?|mounting|plagued|hit by|falls? short|short of|not worth|waste|annoying|noisy|greasy|bland|stale|rude|terrible|awful|horrible|worst|abysmal|avoid|steer clear|shortcomings?|burden|penalized|unauthori[sz]ed|convicted|scaled back|negative|criticism|headaches?|pain|painful|tedious|clumsy|crowded|scaled back|scaling back|rolled back|walked back|backtrack(?:ed|ing)?|litigation|accused|accusations?|allegations?|probe|investigations?|antitrust|violations?|penalties|settlement|shortages?|recalled|halted|suspended|cancel(?:l)?ed|pressure|headwinds|slump(?:ed)?|shrinking|shrank|plunged?|tumbled?|missed|disappointed|underwhelming|mixed|uneven|spotty|patchy|laggy|cluttered|tricky|clunkier|pricier|dearer|hikes?|price increases?|raised (?:\\w+ )?prices|hacking|hackers?|stolen|exposed|affected (?:customers|accounts|users)|deprioriti[sz]ed|throttl(?:ed|ing)|heavier|bulkier|noisier|unhealthy|sugary|overrated|almost nothing|trails?|trailing|lost ground|losing|distrust|mistrust",
      -1,
    ],
    ["terrible|awful|horrible|worst|abysmal|nightmare|disaster|scam|unusable|avoid|steer clear", -2],
    // Phrases whose words look evaluative but are not ("a good idea to", "bond issues", "best practice").
    [
      "good idea|good news|good to know|best practices?|at best|best to|as well|well as|pretty much|good luck|best known|leading to|lead to|no problem|not only|safe to say|high-yield|free to|hard to say|free trial|weak connections?|weak signal|customer-facing",
      0,
    ],
  ],
  negators:
    "not|no|never|without|hardly|barely|isn't|isnt|doesn't|doesnt|don't|dont|aren't|wasn't|weren't|cannot|can't|won't|wouldn't|nor|neither|nothing|lacks|lack",
  intensifiers:
    "very|extremely|highly|widely|really|particularly|genuinely|truly|incredibly|remarkably|exceptionally|especially|super|so|far|much|most|quite|seriously|notably|significantly",
  contrast: "but|however|that said|on the other hand|nevertheless",
  concessive: "though|although|even though|whereas|while|albeit",
  than: "than",
  compared:
    "than|close to|ahead of|behind|compared to|compared with|versus|vs\\.?|like|unlike|over|rather than|instead of|similar to|as",
  referents:
    "it|its|it's|they|their|they're|the company|the brand|the bank|the firm|the app|the platform|the tool|the service|the airline|the chain|this|that|both",
  nouns:
    "the company|the firm|the bank|the brand|the group|the airline|the chain|the retailer|the carrier|the insurer|the automaker|the platform|the app|its shares|the stock",
  both: "both|all three|all of them|either",
  warn: "avoid(?:ing)?|steer clear|stay away|wouldn't recommend|would not recommend|don't recommend|do not recommend|can't recommend|cannot recommend|not recommend|think twice|look elsewhere|not the right fit|not a good fit|skip it|be wary|be careful|beware|red flags?|wouldn't pay|would not pay|wouldn't bother|don't bother|not worth (?:it|paying|the money|the price)|hard to justify|pass on it|i'd avoid|i would avoid|i'd skip|i would skip|don't waste your (?:time|money)|waste of (?:time|money)|skip|hard pass|i wouldn't|i would not|wouldn't rely|would not rely|not rely on|looking elsewhere|shop elsewhere|go elsewhere|don't go back|stop using|stay clear|give it a miss",
  recommend:
    "recommend(?:ed)?|my (?:top )?pick|top pick|best (?:choice|option|overall|bet|pick|fit)|the best (?:choice|option|pick|bet|fit|overall|for)|go-to|first choice|our pick|winner|go with|start with|worth (?:it|considering|a look|trying)|standout|stands out|ideal (?:for|choice)|excellent choice|great choice|strong choice|solid choice|safe bet|hard to beat|tough to beat|the leader|market leader|leading|is excellent|is great|shines|excels|#1|number one|first place",
  labels: {
    recommend:
      "recommendation|recommended|our recommendation|my recommendation|verdict|the verdict|bottom line|our pick|my pick|top pick|best pick|best overall|best choice|best option|winner|overall winner|editor's choice|go with|choose|pick",
    warn: "avoid|not recommended|skip|steer clear|warning|red flag",
  },
};

const FR: LanguageRules = {
  words: [
    ["meilleure?s?|excellente?s?|exceptionnel(?:le)?s?|remarquables?|formidables?|superbes?|parfaite?s?", 3],
    [
      "tres bon(?:ne)?s?|fiables?|puissante?s?|robustes?|intuiti(?:f|ve)s?|solides?|impressionnante?s?|genereu(?:x|se)s?",
      2,
    ],
    [
      "bon(?:ne)?s?|bien|utiles?|pratiques?|simples?|facile(?:s|ment)?|rapides?|abordables?|economiques?|moins cher(?:e)?s?|flexibles?|efficaces?|performante?s?|securise(?:e)?s?|complete?s?|populaires?|appreciee?s?|apprecie|reconnue?s?|leader|ideale?s?|agreables?|savoureu(?:x|se)s?|delicieu(?:x|se)s?|fluides?|riches?|ergonomiques?|competiti(?:f|ve)s?|avantages?|atouts?|points? forts?|se distingue|brille|reussite|croissance|progresse|recommande|recommandee?s?|vaut le coup|rapport qualite-prix|difficile a battre|reduisent le risque|reduit le risque|confortables?|stricte?s?|salue(?:e|s)?|reference|numero un|leader mondial|plus grand|s'impose|imbattable|rentables?|domine|dominent|fiabilite",
      1,
    ],
    [
      "cher(?:e)?s?|couteu(?:x|se)s?|onereu(?:x|se)s?|lente?s?|lourde?s?|complexes?|compliquee?s?|difficiles?|limitee?s?|manque|manquent|faibles?|mediocres?|decevante?s?|obsolete?s?|instables?|confuse?s?|problemes?|defauts?|inconvenients?|points? faibles?|plaintes?|critiquee?s?|critiques?|pannes?|retards?|bugs?|pertes?|baisse|recul|chute|amendes?|scandales?|fraude|risques?|frais|surcout|decoit|deception|a eviter|eviter|evitez|deconseille(?:e|r)?|fades?|mal entretenue?s?|controverse|accuse(?:e|s)?|condamne(?:e|s)?|amende",
      -1,
    ],
    ["catastrophique|desastreu(?:x|se)|pire|nul(?:le)?|arnaque|horrible|a fuir|fuyez", -2],
  ],
  negators: "ne|n'|pas|jamais|sans|aucun(?:e)?|ni|guere",
  intensifiers: "tres|vraiment|extremement|particulierement|tellement|trop|fort|hautement|assez|bien plus|beaucoup",
  contrast: "mais|cependant|toutefois|pourtant|neanmoins|en revanche|par contre",
  concessive: "bien que|quoique|meme si|alors que|tandis que",
  than: "que|qu'",
  compared: "que|qu'|comme|face a|par rapport a|contrairement a|plutot que|devant|derriere",
  referents:
    "il|elle|ils|elles|son|sa|ses|leur|leurs|la societe|l'entreprise|la marque|la banque|le groupe|l'application|l'outil|celle-ci|celui-ci|cette",
  nouns:
    "la societe|l'entreprise|le groupe|la chaine|la banque|la marque|l'action|l'enseigne|la compagnie|l'application|la plateforme",
  both: "les deux|tous les deux|toutes les deux|les trois",
  warn: "evitez|a eviter|eviter|je deconseille|deconseille|ne recommande pas|ne le recommande pas|ne la recommande pas|a fuir|mefiez-vous|passez votre chemin|ne vaut pas (?:le coup|la peine)|je ne paierais pas|je ne prendrais pas|je passerais mon chemin|n'acheterais pas|ne perdez pas votre temps|evite|evite-le|evite-la|fuis|laisse tomber|passe ton chemin|allez voir ailleurs|va voir ailleurs|regardez ailleurs|je n'y retournerais pas",
  recommend:
    "je recommande|recommande|recommandee|meilleur choix|le meilleur|la meilleure|premier choix|ideal pour|ideale pour|notre choix|se distingue|incontournable|vaut le coup|leader|excellent choix|le choix ideal",
  labels: {
    recommend:
      "recommandation|notre recommandation|ma recommandation|verdict|notre choix|mon choix|meilleur choix|le gagnant|gagnant|choix de la redaction|a privilegier|choisissez",
    warn: "a eviter|evitez|deconseille|attention",
  },
};

const DE: LanguageRules = {
  words: [
    [
      "beste[nmrs]?|am besten|hervorragend(?:e[nmrs]?)?|ausgezeichnet(?:e[nmrs]?)?|exzellent(?:e[nmrs]?)?|herausragend(?:e[nmrs]?)?|perfekt(?:e[nmrs]?)?|erstklassig(?:e[nmrs]?)?",
      3,
    ],
    [
      "sehr gut(?:e[nmrs]?)?|zuverlassig(?:e[nmrs]?)?|leistungsstark(?:e[nmrs]?)?|stark(?:e[nmrs]?)?|intuitiv(?:e[nmrs]?)?|robust(?:e[nmrs]?)?|solide[nmrs]?|beeindruckend(?:e[nmrs]?)?|uberzeugt|uberzeugend(?:e[nmrs]?)?",
      2,
    ],
    [
      "gut(?:e[nmrs]?)?|besser(?:e[nmrs]?)?|nutzlich(?:e[nmrs]?)?|praktisch(?:e[nmrs]?)?|einfach(?:e[nmrs]?)?|schnell(?:e[nmrs]?)?|gunstig(?:e[nmrs]?)?|gunstiger|preiswert(?:e[nmrs]?)?|flexibel|flexible[nmrs]?|effizient(?:e[nmrs]?)?|sicher(?:e[nmrs]?)?|beliebt(?:e[nmrs]?)?|fuhrend(?:e[nmrs]?)?|ideal(?:e[nmrs]?)?|lecker(?:e[nmrs]?)?|angenehm(?:e[nmrs]?)?|komfortabel|umfangreich(?:e[nmrs]?)?|vorteile?|vorteilhaft|starken|punktet|glanzt|empfehlenswert(?:e[nmrs]?)?|empfohlen|wachstum|wachst|lohnt sich|preis-leistungs-verhaltnis|stabil(?:e[nmrs]?)?|schwer zu schlagen|erste wahl|sterne|marktfuhrer|spitze",
      1,
    ],
    [
      "teuer|teure[nmrs]?|teurer|kostspielig(?:e[nmrs]?)?|langsam(?:e[nmrs]?)?|kompliziert(?:e[nmrs]?)?|umstandlich(?:e[nmrs]?)?|schwierig(?:e[nmrs]?)?|begrenzt(?:e[nmrs]?)?|eingeschrankt(?:e[nmrs]?)?|fehlt|fehlen|schwach(?:e[nmrs]?)?|schwachen|mittelmaßig(?:e[nmrs]?)?|enttauschend(?:e[nmrs]?)?|veraltet(?:e[nmrs]?)?|instabil(?:e[nmrs]?)?|probleme?|nachteile?|mangel|kritik|kritisiert|beschwerden|ausfalle?|verzogerungen?|verluste?|ruckgang|strafen?|bußgeld|skandal(?:e)?|betrug|risiken|risiko|gebuhren|vermeiden|meiden|schlecht(?:e[nmrs]?)?|schlechter|umstritten(?:e[nmrs]?)?|abgeschwacht|kritisch|bedenken|datenschutzbedenken|raten ab|raten von|abraten|ungesund(?:e[nmrs]?)?|greenwashing|vorwurfe?|selten",
      -1,
    ],
    ["katastrophal(?:e[nmrs]?)?|miserabel|schlechteste[nmrs]?|finger weg|unbrauchbar", -2],
  ],
  negators: "nicht|kein|keine|keinen|keinem|keiner|nie|niemals|ohne|kaum|weder",
  intensifiers: "sehr|besonders|außerst|wirklich|extrem|hochst|ziemlich|viel|deutlich|zu|richtig|echt",
  contrast: "aber|jedoch|allerdings|dennoch|trotzdem|doch",
  concessive: "obwohl|obgleich|wahrend|wobei|auch wenn",
  than: "als",
  compared: "als|wie|gegenuber|im vergleich zu|vor|hinter|statt",
  referents:
    "es|sie|er|sein|seine|ihr|ihre|das unternehmen|die marke|die bank|der konzern|die app|die plattform|dieser|diese|dieses",
  nouns:
    "das unternehmen|dem unternehmen|des unternehmens|der konzern|dem konzern|des konzerns|die aktie|die marke|die bank|der bank|die airline|die app|die plattform",
  both: "beide|alle drei|beide anbieter",
  warn: "raten von|nicht die erste wahl|vermeiden|meiden sie|finger weg|nicht empfehlen|nicht empfehlenswert|rate (?:ich )?ab|abraten|abzuraten|vorsicht|lohnt sich nicht|nicht lohnenswert|wurde ich nicht|wurde ich die finger|lieber nicht|spar(?:en sie)? sich|wurde ich nicht kaufen|verschwenden sie keine zeit|zeitverschwendung|die finger lassen|finger davon|nicht (?:nochmal |wieder |mehr )?kaufen|jedenfalls nicht|lass es|lassen sie es|sparen sie sich|spar dir|lieber woanders|schauen sie sich woanders",
  recommend:
    "empfehle|empfehlen|empfehlenswert|empfohlen|beste wahl|die beste|der beste|das beste|erste wahl|testsieger|ideal fur|spitzenreiter|marktfuhrer|punktet|uberzeugt",
  labels: {
    recommend:
      "empfehlung|unsere empfehlung|meine empfehlung|fazit|urteil|unser tipp|mein tipp|testsieger|sieger|beste wahl|preis-leistungs-sieger|unsere wahl",
    warn: "vermeiden|finger weg|nicht empfohlen|warnung|vorsicht",
  },
};

const ES: LanguageRules = {
  words: [
    [
      "la mejor|el mejor|los mejores|las mejores|excelentes?|excepcionales?|extraordinari[oa]s?|sobresalientes?|perfect[oa]s?|magnific[oa]s?",
      3,
    ],
    [
      "muy buen[oa]s?|fiables?|confiables?|potentes?|robust[oa]s?|intuitiv[oa]s?|solid[oa]s?|impresionantes?|generos[oa]s?",
      2,
    ],
    [
      "buen[oa]?s?|utiles?|practic[oa]s?|sencill[oa]s?|facil(?:es)?|rapid[oa]s?|economic[oa]s?|asequibles?|baratos?|barata|mas barat[oa]|flexibles?|eficaz|eficaces|eficientes?|segur[oa]s?|popular(?:es)?|lider(?:es)?|ideal(?:es)?|comod[oa]s?|delicios[oa]s?|complet[oa]s?|competitiv[oa]s?|ventajas?|fortalezas?|destaca|sobresale|brilla|crecimiento|crece|recomendad[oa]s?|recomiendo|vale la pena|calidad-precio|valorad[oa]s?|apreciad[oa]s?|dificil de superar|reduce el riesgo|cuesta menos|estables?|imprescindibles?|gana|referente|mas grande|numero uno|mejor(?:es)?|cargos? inesperados?",
      1,
    ],
    [
      "car[oa]s?|mas car[oa]s?|costos[oa]s?|lent[oa]s?|complicad[oa]s?|complej[oa]s?|dificil(?:es)?|limitad[oa]s?|carece|falta|faltan|debil(?:es)?|mediocres?|decepcionantes?|anticuad[oa]s?|obsolet[oa]s?|inestables?|problemas?|desventajas?|inconvenientes?|quejas?|recargos?|cargos inesperados|critica(?:s|do|da)?|fallos?|fallas?|caidas?|retrasos?|perdidas?|descenso|multas?|escandalos?|fraude|riesgos?|comisiones|evitar|evite|evitalo|cuesta mas|peor(?:es)?|mal[oa]s?|multad[oa]s?|negativ[oa]s?|desconfian|desconfianza|polemica|sancionad[oa]s?|escasa?s?|critican",
      -1,
    ],
    ["pesim[oa]s?|horribles?|desastros[oa]s?|estafa|terribles?|el peor|la peor", -2],
  ],
  negators: "no|nunca|jamas|sin|tampoco|ni|ningun[oa]?",
  intensifiers:
    "muy|realmente|extremadamente|especialmente|particularmente|sumamente|bastante|tan|demasiado|mucho|altamente",
  contrast: "pero|sin embargo|no obstante|en cambio|aun asi",
  concessive: "aunque|si bien|mientras que|a pesar de",
  than: "que",
  compared: "que|como|frente a|comparado con|a diferencia de|en lugar de|por delante de|detras de",
  referents:
    "es|su|sus|este|esta|ella|el|ellos|la empresa|la compania|la marca|el banco|la aerolinea|la aplicacion|la plataforma",
  nouns:
    "la empresa|la compania|la marca|el banco|el grupo|la cadena|la aerolinea|la aplicacion|la plataforma|sus acciones",
  both: "ambos|ambas|los dos|las dos|los tres",
  warn: "evite|evitar|evitalo|evitala|no recomiendo|no lo recomiendo|no la recomendaria|no recomendaria|desaconsejo|mejor alejarse|cuidado con|no vale la pena|no merece la pena|no pagaria|no compraria|no lo compraria|no te compensa|no compensa|no pierdas el tiempo|perdida de tiempo|no (?:te |le |les )?conviene|pasaria de|no vale el|mejor busca|busca otra|yo no lo usaria|no lo usaria|olvidate de",
  recommend:
    "recomiendo|recomendad[oa]|recomendable|la mejor opcion|el mejor|la mejor|mejor eleccion|primera opcion|ideal para|destaca|vale la pena|lider|opcion ideal|excelente opcion",
  labels: {
    recommend:
      "recomendacion|nuestra recomendacion|mi recomendacion|veredicto|nuestra eleccion|mi eleccion|mejor opcion|ganador|ganadora|la mejor eleccion|elige",
    warn: "evitar|evita|no recomendado|cuidado|advertencia",
  },
};

const JA: LanguageRules = {
  words: [
    ["最高|最適|最良|抜群|圧倒的|非常に優れ|一番人気|ナンバーワン", 3],
    [
      "優れ|おすすめ|オススメ|お勧め|信頼性が高|信頼でき|高性能|強力|使いやすい|使いやすさ|充実|安定し|高品質|高評価|評判が良|人気が高|直感的",
      2,
    ],
    [
      "良い|よい|いい|便利|簡単|手軽|速い|高速|安い|安価|お手頃|手頃|リーズナブル|人気|定評|効果的|効果が高|評価が高|価値があ|見合う|長持ち|効果的|効果が高|評価が高|魅力|強み|メリット|好評|満足|快適|美味しい|おいしい|安心|安全|柔軟|効率|豊富|成長|伸び|向上|推奨|評価が高|コスパ|優秀|一押し|定番",
      1,
    ],
    [
      "高価|割高|価格が高|値段が高|高め|にくい|にくく|遅い|重い|使いにくい|わかりにくい|分かりにくい|難しい|複雑|不便|不安定|弱み|弱い|デメリット|欠点|問題|課題|不満|苦情|批判|障害|遅延|損失|赤字|減少|低下|罰金|不祥事|詐欺|リスク|懸念|限られ|物足りない|劣る|古い|注意が必要|避け",
      -1,
    ],
    ["最悪|ひどい|酷い|使い物にならない|おすすめしません|お勧めしません|おすすめできません", -2],
  ],
  negators: "ない|ません|なかった|ず|なく",
  intensifiers: "とても|非常に|かなり|特に|本当に|極めて|大変|すごく|最も",
  contrast: "しかし|ただし|ただ|一方|けれども|けど|とはいえ|ですが|でも",
  concessive: "ものの",
  than: "より",
  compared: "より|と比べ|に比べ|と同様",
  referents: "同社|それ|こちら|この|その|同ブランド|同行|同アプリ",
  nouns: "同社|同グループ|同行|同ブランド|同アプリ",
  both: "両方|両社|いずれも|どちらも",
  warn: "避け|避けた方|おすすめしません|お勧めしません|おすすめできません|おすすめはできません|お勧めはできません|おすすめしない|推奨しません|控えた方|注意が必要|やめとけ|やめておけ|やめた方|使う理由はない|選ぶ理由はない|買う理由はない|価値はない|買わない方|手を出さない",
  recommend: "おすすめ|オススメ|お勧め|推奨|最適|一押し|ベストバイ|最有力|第一候補|ぴったり|イチオシ",
  labels: {
    recommend: "おすすめ|オススメ|お勧め|結論|推奨|一押し|イチオシ|ベストバイ|総合1位|選ぶなら",
    warn: "避けるべき|非推奨|注意",
  },
};

const ZH: LanguageRules = {
  words: [
    ["最好|最佳|首选|顶尖|出色|卓越|完美|无与伦比", 3],
    ["推荐|优秀|强大|可靠|好用|易用|直观|稳定|领先|口碑好|性价比高|值得", 2],
    [
      "好|不错|方便|简单|快速|便宜|更便宜|价格更低|实惠|划算|实用|流行|受欢迎|知名|安全|灵活|高效|丰富|优势|优点|亮点|满意|舒适|好喝|好吃|美味|清爽|增长|提升|改善|创新|经典|信赖|专业",
      1,
    ],
    [
      "一般|不如|下滑|挑战|贵|昂贵|偏贵|慢|复杂|困难|难用|不便|不稳定|缺乏|缺少|弱|落后|过时|问题|缺点|劣势|不足|投诉|批评|争议|故障|延迟|亏损|下滑|下降|罚款|丑闻|风险|担忧|隐患|失望|避免|避开|谨慎",
      -1,
    ],
    ["最差|糟糕|很差|骗局|千万别|不推荐|不建议", -2],
  ],
  negators: "不|没|没有|未|无|并非|不是|别",
  intensifiers: "很|非常|特别|十分|极其|相当|最|更|太",
  contrast: "但是|但|不过|然而|可是|却",
  concessive: "虽然|尽管",
  than: "比",
  compared: "比|不如|像|和|与|相比",
  referents: "它|它们|其|该公司|该品牌|该行|这家",
  nouns: "该公司|该品牌|该行|该集团|这家公司",
  both: "两者|二者|两家|都",
  warn: "避免|避开|不推荐|不建议|千万别|慎用|谨慎选择|别买|不要买|离远点|劝你别|我不会推荐|慎重|不值得|别选|别用",
  recommend: "推荐|首选|最佳选择|最好的选择|值得一试|强烈推荐|最适合",
  labels: { recommend: "推荐|建议|结论|首选|最佳选择|总结|优选", warn: "避免|不推荐|慎选|注意" },
};

export const RULES: Record<Language, LanguageRules> = { en: EN, fr: FR, de: DE, es: ES, ja: JA, zh: ZH };
