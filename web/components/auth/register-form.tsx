import { LoaderCircle } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { RegisterForm as RegisterSchema, type User } from "#src/contract/auth.ts";
import { FormField, firstMessages, focusFirstInvalid } from "#web/components/auth/form-field.tsx";
import { api, ApiError, Button, toast } from "#web/kit.ts";

type Values = { username: string; email: string; password: string; confirmPassword: string };
type Errors = Partial<Record<keyof Values, string>>;

function validate(values: Values) {
  const result = v.safeParse(RegisterSchema, values);
  return result.success
    ? { data: result.output, errors: {} }
    : { data: null, errors: firstMessages(v.flatten<typeof RegisterSchema>(result.issues).nested) as Errors };
}

export type RegisterOutcome = { signedIn: true; user: User } | { signedIn: false; username: string };

/**
 * Spec §5 registration rules, then POST /api/register, which signs the new user in. Spec §4: if
 * the session did not take (the cookie was not kept), the page asks to log in instead.
 */
export function RegisterForm({ onRegistered }: { onRegistered: (outcome: RegisterOutcome) => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({ username: "", email: "", password: "", confirmPassword: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);

  const change = (field: keyof Values) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (attempted) setErrors(validate(next).errors);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setAttempted(true);
    const { data, errors: found } = validate(values);
    setErrors(found);
    if (!data) {
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
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
      <FormField label="Password" name="password" type="password" autoComplete="new-password" value={values.password} onChange={change("password")} error={errors.password} />
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
