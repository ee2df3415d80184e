import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import { useId, useState } from "react";
import type { CreatedToken } from "#src/contract/tokens.ts";
import { CopyField } from "#web/components/copy-field.tsx";
import { tokenQueries } from "#web/lib/token-queries.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, ApiError, Button, Input } from "#web/shared-chunk.ts";

/**
 * Names and creates a token (POST /api/tokens). The server checks the name: its message shows
 * under the field. The new token joins the list without its secret; the secret goes to `onCreated`.
 */
export function NewTokenForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const queryClient = useQueryClient();
  const ids = { name: useId(), hint: useId(), error: useId() };
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: (tokenName: string) => api.createToken(tokenName),
    onSuccess: (created) => {
      const { token: _shownOnce, ...listed } = created;
      const key = tokenQueries.list(api).queryKey;
      if (queryClient.getQueryData(key)) queryClient.setQueryData(key, (list) => list && [listed, ...list]);
      else void queryClient.invalidateQueries({ queryKey: key });
      setName("");
      onCreated(created);
    },
  });
  // Invalid input is the name the server refused; anything else is not about the field.
  const fieldError = create.error instanceof ApiError && create.error.code === "INVALID_INPUT" ? errorText(create.error) : undefined;

  return (
    <form
      className="space-y-2"
      aria-label="Create a token"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(name);
      }}
    >
      <label htmlFor={ids.name} className="text-sm font-medium">
        Token name
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={ids.name}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (create.isError) create.reset();
          }}
          placeholder="e.g. Laptop, or Claude Desktop"
          autoComplete="off"
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${ids.error} ${ids.hint}` : ids.hint}
        />
        <Button type="submit" disabled={create.isPending} className="shrink-0">
          <Plus aria-hidden="true" />
          {create.isPending ? "Creating..." : "Create token"}
        </Button>
      </div>
      {fieldError ? (
        <p id={ids.error} className="text-sm text-destructive" role="alert">
          {fieldError}
        </p>
      ) : null}
      <p id={ids.hint} className="text-xs text-muted-foreground">
        Name it after where it will be used, to know which one to revoke later.
      </p>
      {create.isError && !fieldError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not create the token</AlertTitle>
          <AlertDescription>{errorText(create.error)}</AlertDescription>
        </Alert>
      ) : null}
    </form>
  );
}

/**
 * The new token, this once: a read-only field (focused and selected), a Copy button, how to
 * use it, and that it will not be shown again. Only ever rendered in the browser, after a create.
 */
export function CreatedTokenPanel({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const ids = { title: useId(), note: useId() };
  const origin = typeof window === "undefined" ? "" : window.location.origin;

  return (
    <section aria-labelledby={ids.title} className="space-y-3 rounded-lg border border-emerald-600/50 bg-emerald-50/60 p-4 dark:bg-emerald-950/30">
      <h3 id={ids.title} className="flex items-center gap-2 font-medium break-words">
        <KeyRound className="size-4 shrink-0" aria-hidden="true" />
        {`Your new token “${created.name}”`}
      </h3>
      <p id={ids.note} className="text-sm">
        <strong>Copy it now: it will not be shown again.</strong> Anyone who has it can use your account until you revoke it.
      </p>
      <CopyField value={created.token} label="Token" noun="token" autoFocus describedBy={ids.note} />
      <div className="space-y-1.5 text-sm">
        <p>Sign the command-line tool in with it (paste it when asked: on the command line it would show in the process list):</p>
        <pre className="rounded-md bg-muted px-3 py-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">
          <code>{`aisc login --server ${origin} --token-stdin`}</code>
        </pre>
        <p className="text-muted-foreground">
          For scripts and MCP clients, set <code className="font-mono text-foreground">AISC_TOKEN</code> to it instead (and{" "}
          <code className="font-mono text-foreground">AISC_SERVER</code> to <span className="[overflow-wrap:anywhere]">{origin}</span>).
        </p>
      </div>
      <Button type="button" variant="outline" size="sm" onClick={onDone}>
        Done
      </Button>
    </section>
  );
}
