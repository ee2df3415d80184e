import { LoaderCircle } from "lucide-react";
import type { FormEvent } from "react";
import { Login, type User } from "#src/contract/auth.ts";
import { FormField } from "#web/components/auth/form-field.tsx";
import { useSchemaForm } from "#web/hooks/use-schema-form.ts";
import { api, ApiError, Button, toast } from "#web/shared-chunk.ts";

/** Spec §5 login: 'Username is required' / 'Password is required'; spec §8 'Login failed' toast. */
export function LoginForm({ initialUsername = "", onSignedIn }: { initialUsername?: string; onSignedIn: (user: User) => void }) {
  const { formRef, values, errors, busy, setBusy, change, submitted } = useSchemaForm(Login, { username: initialUsername, password: "" });

  async function submit(event: FormEvent<HTMLFormElement>) {
    const data = submitted(event);
    if (!data) return;
    setBusy(true);
    try {
      onSignedIn(await api.login(data));
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      toast({ variant: "destructive", title: "Login failed", description: message ?? "Invalid username or password" });
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
      <FormField label="Username" name="username" autoComplete="username" value={values.username} onChange={change("username")} error={errors.username} />
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        onChange={change("password")}
        error={errors.password}
      />
      <Button type="submit" disabled={busy} className="mt-2 w-full">
        {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
        {busy ? "Logging in..." : "Log In"}
      </Button>
    </form>
  );
}
