import { useQuery } from "@tanstack/react-query";
import { SectionCard } from "../components/section-card.tsx";
import { ChangePasswordCard } from "../features/account/change-password-card.tsx";
import { SessionsCard } from "../features/account/sessions-card.tsx";
import { meQuery } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

export function AccountPage() {
  useTitle("Your account");
  const me = useQuery(meQuery);
  const user = me.data?.user;
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
      {user && (
        <SectionCard titleId="profile-title" title="Profile">
          <dl className="grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground">Name</dt>
              <dd className="mt-0.5 font-medium">{user.name}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">E-mail</dt>
              <dd className="mt-0.5 font-medium wrap-anywhere">{user.email}</dd>
            </div>
          </dl>
        </SectionCard>
      )}
      <ChangePasswordCard />
      <SessionsCard />
    </div>
  );
}
