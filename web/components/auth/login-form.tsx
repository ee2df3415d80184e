import { LoaderCircle } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { Login, type User } from "#src/contract/auth.ts";
import { FormField, firstMessages, focusFirstInvalid } from "#web/components/auth/form-field.tsx";
import { api, ApiError, Button, toast } from "#web/kit.ts";

type Values = { username: string; password: string };
type Errors = Partial<Record<keyof Values, string>>;

function validate(values: Values) {
  const result = v.safeParse(Login, values);
  return result.success ? { data: result.output, errors: {} } : { data: null, errors: firstMessages(v.flatten<typeof Login>(result.issues).nested) as Errors };
}

/** Spec §5 login: 'Username is required' / 'Password is required'; spec §8 'Login failed' toast. */
export function LoginForm({ initialUsername = "", onSignedIn }: { initialUsername?: string; onSignedIn: (user: User) => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({ username: initialUsername, password: "" });
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
      <FormField label="Password" name="password" type="password" autoComplete="current-password" value={values.password} onChange={change("password")} error={errors.password} />
      <Button type="submit" disabled={busy} className="mt-2 w-full">
        {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
        {busy ? "Logging in..." : "Log In"}
      </Button>
    </form>
  );
}
