import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
import { ROLE_NAMES, ROLES } from "../../lib/roles.ts";
import type { Role } from "../../lib/types.ts";

/** Roles one may hand out: only owners make owners. */
function assignableRoles(myRole: Role): Role[] {
  return ROLES.filter((role) => role !== "owner" || myRole === "owner");
}

export function RoleSelect({
  value,
  onChange,
  myRole,
  disabled,
  id,
  ariaLabel,
}: {
  value: Role;
  onChange: (role: Role) => void;
  myRole: Role;
  disabled?: boolean;
  id?: string;
  ariaLabel?: string;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Role)} disabled={disabled}>
      <SelectTrigger id={id} aria-label={ariaLabel} className="w-32">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {assignableRoles(myRole).map((role) => (
          <SelectItem key={role} value={role}>
            {ROLE_NAMES[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
