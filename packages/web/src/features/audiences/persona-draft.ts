import type { Persona, PersonaCreate } from "@sightline/sdk";

/** The persona form's state: every field as typed, blank for none. */
export interface PersonaDraft {
  name: string;
  role: string;
  company_size: string;
  industry: string;
  constraints: string;
  location: string;
  language: string;
  active: boolean;
}

/** The fields that describe the person (the name only names them). */
export const PERSONA_FIELDS = ["role", "company_size", "industry", "constraints", "location", "language"] as const;
type PersonaField = (typeof PERSONA_FIELDS)[number];

/** Each field's label, as the form and a persona's card show it. */
export const PERSONA_LABELS: Record<PersonaField, string> = {
  role: "Role",
  company_size: "Company size",
  industry: "Industry",
  constraints: "Constraints",
  location: "Location",
  language: "Preferred language",
};

/** The API's lengths: a name up to 80 characters, constraints up to 500, the other fields up to 200. */
export const MAX_LENGTH: Record<"name" | PersonaField, number> = {
  name: 80,
  role: 200,
  company_size: 200,
  industry: 200,
  constraints: 500,
  location: 200,
  language: 200,
};

export function emptyPersona(): PersonaDraft {
  return {
    name: "",
    role: "",
    company_size: "",
    industry: "",
    constraints: "",
    location: "",
    language: "",
    active: true,
  };
}

export function personaDraftOf(persona: Persona): PersonaDraft {
  return {
    name: persona.name,
    role: persona.role ?? "",
    company_size: persona.company_size ?? "",
    industry: persona.industry ?? "",
    constraints: persona.constraints ?? "",
    location: persona.location ?? "",
    language: persona.language ?? "",
    active: persona.active,
  };
}

/** The form's checks before anything is sent: issues by the API's field names. */
export function checkPersona(draft: PersonaDraft, others: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = draft.name.trim();
  if (name === "") errors.name = "Give the persona a name people recognise, e.g. “Cautious CFO”.";
  else if (others.some((other) => other.toLowerCase() === name.toLowerCase()))
    errors.name = "Another persona of this brand has this name.";
  for (const key of ["name", ...PERSONA_FIELDS] as const) {
    if (draft[key].trim().length > MAX_LENGTH[key]) errors[key] = `At most ${MAX_LENGTH[key]} characters.`;
  }
  return errors;
}

/** The body the API takes: blank fields as null (the server keeps no empty text). */
export function personaBodyOf(draft: PersonaDraft): PersonaCreate & { name: string } {
  const body: PersonaCreate = { name: draft.name.trim(), active: draft.active };
  for (const key of PERSONA_FIELDS) {
    const value = draft[key].trim();
    body[key] = value === "" ? null : value;
  }
  return body;
}
