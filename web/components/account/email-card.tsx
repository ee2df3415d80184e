import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { ApiClient } from "#src/client/api.ts";
import type { NotificationSettings, UpdateNotifications } from "#src/contract/notifications.ts";
import { SettingsCard } from "#web/components/account/settings-card.tsx";
import { api, ApiError } from "#web/shared-chunk.ts";

/** The trackers' e-mails the person asked for (issue 26); under "workbench", so dropped on sign-in and sign-out. */
export const notificationsQuery = (client: ApiClient) =>
  queryOptions({ queryKey: ["workbench", "notifications"], queryFn: () => client.getNotifications(), staleTime: 0 });

const choices: { key: keyof UpdateNotifications; label: string }[] = [
  { key: "digest", label: "Weekly digest of my trackers" },
  { key: "alerts", label: "An e-mail for each alert" },
];

/** The profile's E-mail card: the trackers' digest and alert e-mails, each saved as it is ticked; or why there are none. */
export function EmailCard() {
  const { data } = useQuery(notificationsQuery(api));
  return (
    <SettingsCard id="email" title="E-mail" description="What your trackers send you by e-mail.">
      {!data ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : data.emailConfigured ? (
        <EmailChoices settings={data} />
      ) : (
        <p>E-mail is not configured on this server.</p>
      )}
    </SettingsCard>
  );
}

function EmailChoices({ settings }: { settings: NotificationSettings }) {
  const queryClient = useQueryClient();
  const statusId = useId();
  const { queryKey } = notificationsQuery(api);
  const [shown, setShown] = useState({ digest: settings.digest, alerts: settings.alerts });
  // What the server keeps, whenever it answers (a refusal puts the box back).
  useEffect(() => setShown({ digest: settings.digest, alerts: settings.alerts }), [settings.digest, settings.alerts]);
  const save = useMutation({
    mutationFn: (change: UpdateNotifications) => api.updateNotifications(change),
    onSuccess: (saved) => queryClient.setQueryData(queryKey, saved),
    // Refused: the boxes show what the server keeps.
    onError: () => {
      setShown({ digest: settings.digest, alerts: settings.alerts });
      void queryClient.invalidateQueries({ queryKey });
    },
  });
  return (
    <fieldset className="space-y-3" aria-describedby={statusId}>
      <legend className="text-sm text-muted-foreground">
        To <span className="font-medium break-all text-foreground">{settings.email}</span>
      </legend>
      {choices.map(({ key, label }) => (
        <label key={key} className="flex items-center gap-3 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={shown[key]}
            disabled={save.isPending}
            onChange={(event) => {
              // Ticked at once, as a checkbox is (a React state, set within the click); the server's answer then says whether it was kept.
              const checked = event.target.checked;
              setShown((now) => ({ ...now, [key]: checked }));
              save.mutate({ [key]: checked });
            }}
          />
          {label}
        </label>
      ))}
      <p id={statusId} role="status" className="min-h-5 text-sm text-muted-foreground">
        {save.isError ? (save.error instanceof ApiError ? save.error.message : "Could not save.") : save.isSuccess ? "Saved." : ""}
      </p>
    </fieldset>
  );
}
