import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { ApiClient } from "#src/client/api.ts";
import type { ConfirmationSent, NotificationSettings, UpdatedNotifications, UpdateNotifications } from "#src/contract/notifications.ts";
import { formatDate } from "#src/core/dates.ts";
import { SettingsCard } from "#web/components/account/settings-card.tsx";
import { api, ApiError, Button } from "#web/shared-chunk.ts";

/** The trackers' e-mails the person asked for; under "workbench", so dropped on sign-in and sign-out. */
export const notificationsQuery = (client: ApiClient) =>
  queryOptions({ queryKey: ["workbench", "notifications"], queryFn: () => client.getNotifications(), staleTime: 0 });

const choices: { key: keyof UpdateNotifications; label: string }[] = [
  { key: "digest", label: "Weekly digest of my trackers" },
  { key: "alerts", label: "An e-mail when a run finds alerts" },
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

/** The server's words for a refusal, else `fallback`. */
function refusal(error: unknown, fallback: string): string {
  return error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;
}

/** What became of the confirmation link, in words. */
function confirmationWords(confirmation: ConfirmationSent, email: string): string {
  if (confirmation === "sent") return `We sent a confirmation link to ${email}: e-mails start once you follow it.`;
  if (confirmation === "wait") return `A confirmation link went to ${email} minutes ago: follow it to start these e-mails.`;
  if (confirmation === "capped") return "Today's e-mails to this account are used up: ask for the confirmation link again tomorrow.";
  return "";
}

function EmailChoices({ settings }: { settings: NotificationSettings }) {
  const queryClient = useQueryClient();
  const statusId = useId();
  const { queryKey } = notificationsQuery(api);
  const [shown, setShown] = useState({ digest: settings.digest, alerts: settings.alerts });
  // What the server keeps, whenever it answers (a refusal puts the box back).
  useEffect(() => setShown({ digest: settings.digest, alerts: settings.alerts }), [settings.digest, settings.alerts]);
  const keep = ({ confirmation: _, ...saved }: UpdatedNotifications) => queryClient.setQueryData(queryKey, saved);
  const save = useMutation({
    mutationFn: (change: UpdateNotifications) => api.updateNotifications(change),
    onSuccess: keep,
    // Refused: the boxes show what the server keeps.
    onError: () => {
      setShown({ digest: settings.digest, alerts: settings.alerts });
      void queryClient.invalidateQueries({ queryKey });
    },
  });
  const resend = useMutation({ mutationFn: () => api.resendConfirmation(), onSuccess: keep });
  const pending = !settings.confirmedAt && (settings.digest || settings.alerts);
  const capped = settings.sentToday >= settings.dailyCap;
  const said = resend.isError
    ? refusal(resend.error, "Could not send the link.")
    : resend.isSuccess
      ? confirmationWords(resend.data.confirmation, settings.email)
      : save.isError
        ? refusal(save.error, "Could not save.")
        : save.isSuccess
          ? `Saved.${save.data.confirmation ? ` ${confirmationWords(save.data.confirmation, settings.email)}` : ""}`
          : "";
  return (
    <fieldset className="space-y-3" aria-describedby={statusId}>
      <legend className="text-sm text-muted-foreground">
        To <span className="font-medium break-all text-foreground">{settings.email}</span>
      </legend>
      <p className="text-sm text-muted-foreground">
        {settings.confirmedAt
          ? `Address confirmed on ${formatDate(settings.confirmedAt, { time: false })}.`
          : "Address not confirmed: nothing is sent to it until you follow the link we e-mail to it when you turn an e-mail on."}
      </p>
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
              resend.reset();
              save.mutate({ [key]: checked });
            }}
          />
          {label}
        </label>
      ))}
      {pending ? (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <span>Waiting for you to follow the confirmation link.</span>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={resend.isPending}
            onClick={() => {
              save.reset();
              resend.mutate();
            }}
          >
            Send the link again
          </Button>
        </div>
      ) : null}
      {capped ? (
        <p className="text-sm">{`Today's limit of ${settings.dailyCap} e-mails to this account is reached: nothing more is sent until 00:00 UTC.`}</p>
      ) : null}
      <p id={statusId} role="status" className="min-h-5 text-sm text-muted-foreground">
        {said}
      </p>
    </fieldset>
  );
}
