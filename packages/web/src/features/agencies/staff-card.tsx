import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { QueryState, RoleNote } from "../../components/page-states.tsx";
import { PersonRow } from "../../components/person-row.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { errorMessage } from "../../lib/api.ts";
import { keys, meQuery } from "../../lib/queries.ts";
import { AddStaffDialog } from "./add-staff-dialog.tsx";
import { type AgencyRole, type AgencyStaff, changeStaffRole, removeStaff, staffQuery } from "./agencies-api.ts";
import { useAgency } from "./agency-context.tsx";
import { AgencyRoleSelect } from "./agency-role-select.tsx";
import { AGENCY_ROLE_LABELS, AGENCY_ROLES, agencyRoleAtLeast } from "./agency-roles.ts";

/** The agency's staff: who works on every client, and at what role. Admins add, change and remove them. */
export function StaffCard() {
  const agency = useAgency();
  const me = useQuery(meQuery);
  const staff = useQuery(staffQuery(agency.id));
  const canManage = agencyRoleAtLeast(agency.role, "admin");
  return (
    <SectionCard
      id="staff"
      titleId="staff-title"
      title="Staff"
      description="Who works for the agency. A role here applies in every client's workspace."
      actions={canManage && <AddStaffDialog agencyId={agency.id} agencyName={agency.name} />}
      contentClassName="grid gap-6"
    >
      {!canManage && <RoleNote>Only the agency's admins can add staff or change roles.</RoleNote>}
      <QueryState query={staff} loading="Loading the staff…" error="The staff could not be loaded" />
      {staff.data && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead wide>E-mail</TableHead>
              <TableHead>Role</TableHead>
              <TableHead wide>Joined</TableHead>
              <TableHead wide srOnly>
                Actions
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {staff.data.data.map((member) => (
              <StaffRow
                key={member.user_id}
                member={member}
                isSelf={member.user_id === me.data?.user.id}
                canManage={canManage}
              />
            ))}
          </TableBody>
        </Table>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-primary">What each role can do</summary>
        <dl className="mt-3 grid gap-2 sm:grid-cols-[8rem_1fr]">
          {AGENCY_ROLES.map((role) => (
            <div key={role} className="contents">
              <dt className="font-medium">{AGENCY_ROLE_LABELS[role].name}</dt>
              <dd className="text-muted-foreground">{AGENCY_ROLE_LABELS[role].description}</dd>
            </div>
          ))}
        </dl>
      </details>
    </SectionCard>
  );
}

function StaffRow({ member, isSelf, canManage }: { member: AgencyStaff; isSelf: boolean; canManage: boolean }) {
  const agency = useAgency();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.agencyPart(agency.id, "staff") }),
      // One's own role changes what one may do here and in every client.
      ...(isSelf
        ? [
            queryClient.invalidateQueries({ queryKey: keys.agency(agency.id), exact: true }),
            queryClient.invalidateQueries({ queryKey: keys.me }),
          ]
        : []),
    ]);

  async function setRole(role: AgencyRole) {
    if (role === member.role) return;
    setSaving(true);
    try {
      await changeStaffRole(agency.id, member.user_id, role);
      await refresh();
      toast.success(`${member.name} is now ${role === "admin" ? "an" : "a"} ${AGENCY_ROLE_LABELS[role].name}`);
    } catch (error) {
      // A refusal such as "the last admin" must be read: it stays until closed.
      toast.error(`The role was not changed: ${errorMessage(error)}`, { duration: Number.POSITIVE_INFINITY });
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    await removeStaff(agency.id, member.user_id);
    if (isSelf) {
      // Its pages are not one's own any more.
      queryClient.removeQueries({ queryKey: keys.agency(agency.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.agencies }),
        queryClient.invalidateQueries({ queryKey: keys.me }),
      ]);
      toast.success(`You left ${agency.name}`);
      void navigate({ to: "/" });
      return;
    }
    await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: keys.me })]);
    toast.success(`${member.name} was removed from ${agency.name}`);
  }

  const actions = canManage && (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Remove ${member.name} from the staff`}>
          Remove
        </Button>
      }
      title={isSelf ? `Leave ${agency.name}?` : `Remove ${member.name}?`}
      description={`${isSelf ? "You lose" : `${member.name} loses`} access to every client of ${agency.name} that ${isSelf ? "you are" : "they are"} not a member of directly.`}
      confirmLabel={isSelf ? "Leave the agency" : "Remove from staff"}
      onConfirm={remove}
    />
  );

  return (
    <PersonRow
      person={member}
      isSelf={isSelf}
      role={
        canManage ? (
          <AgencyRoleSelect
            value={member.role}
            onChange={setRole}
            disabled={saving}
            ariaLabel={`Role of ${member.name}`}
          />
        ) : (
          AGENCY_ROLE_LABELS[member.role].name
        )
      }
      actions={actions}
    />
  );
}
