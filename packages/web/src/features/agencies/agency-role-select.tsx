import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
import type { AgencyRole } from "./agencies-api.ts";
import { AGENCY_ROLE_LABELS, AGENCY_ROLES } from "./agency-roles.ts";

export function AgencyRoleSelect({
  value,
  onChange,
  disabled,
  id,
  ariaLabel,
}: {
  value: AgencyRole;
  onChange: (role: AgencyRole) => void;
  disabled?: boolean;
  id?: string;
  ariaLabel?: string;
}) {
  return (
    // Radix gives back one of the values it was given.
    <Select value={value} onValueChange={(next) => onChange(next as AgencyRole)} disabled={disabled}>
      <SelectTrigger id={id} aria-label={ariaLabel} className="w-36">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {AGENCY_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {AGENCY_ROLE_LABELS[role].name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
