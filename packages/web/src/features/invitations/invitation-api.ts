import { queryOptions } from "@tanstack/react-query";
import { appCall } from "../../lib/api.ts";
import type { AcceptedInvitation } from "../../lib/types.ts";

export function invitationQuery(token: string) {
  return queryOptions({
    queryKey: ["invitation", token] as const,
    queryFn: ({ signal }) => appCall("previewInvitation", { params: { token } }, { signal, on401: "throw" }),
    retry: false,
  });
}

export function acceptInvitation(token: string): Promise<AcceptedInvitation> {
  return appCall("acceptInvitation", { params: { token } }, { on401: "throw" });
}
