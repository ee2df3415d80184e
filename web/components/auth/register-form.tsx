import { LoaderCircle } from "lucide-react";
import type { FormEvent } from "react";
import { RegisterForm as RegisterSchema, type User } from "#src/contract/auth.ts";
import { FormField } from "#web/components/auth/form-field.tsx";
import { useSchemaForm } from "#web/hooks/use-schema-form.ts";
import { api, ApiError, Button, toast } from "#web/shared-chunk.ts";

export type RegisterOutcome = { signedIn: true; user: User } | { signedIn: false; username: string };

/**
 * Spec §5 registration rules, then POST /api/register, which signs the new user in. Spec §4: if
 * the session did not take (the cookie was not kept), the page asks to log in instead.
 */
export function RegisterForm({ onRegistered }: { onRegistered: (outcome: RegisterOutcome) => void }) {
  const { formRef, values, errors, busy, setBusy, change, submitted } = useSchemaForm(RegisterSchema, {
    username: "",
    email: "",
    password: "",
    confirmPassword: "",
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    const data = submitted(event);
    if (!data) return;
    setBusy(true);
    let registered: User;
    try {
      // confirmPassword is checked above and never sent (spec §3).
      registered = await api.register({ username: data.username, email: data.email, password: data.password });
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : undefined;
      toast({ variant: "destructive", title: "Registration failed", description: message ?? "An error occurred during registration" });
      setBusy(false);
      return;
    }
    // The server answered with the user and a session cookie; confirm the browser kept it.
    const user = await api.currentUser().catch(() => null);
    if (!user) setBusy(false);
    onRegistered(user ? { signedIn: true, user } : { signedIn: false, username: registered.username });
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
      <FormField label="Username" name="username" autoComplete="username" value={values.username} onChange={change("username")} error={errors.username} />
      <FormField label="Email" name="email" type="email" autoComplete="email" value={values.email} onChange={change("email")} error={errors.email} />
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={values.password}
        onChange={change("password")}
        error={errors.password}
      />
      <FormField
        label="Confirm Password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={change("confirmPassword")}
        error={errors.confirmPassword}
      />
      <Button type="submit" disabled={busy} className="mt-2 w-full">
        {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
        {busy ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
