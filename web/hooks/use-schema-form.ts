import { useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { firstMessages, focusFirstInvalid } from "#web/components/auth/form-field.tsx";

type Fields = Record<string, string>;

/**
 * A form checked by one contract schema (the server's own): first message per field, shown once
 * a submit was tried and then kept live as the user types; focus goes to the first bad field.
 */
export function useSchemaForm<S extends v.GenericSchema<Fields, unknown>>(schema: S, initial: v.InferInput<S>) {
  type Values = v.InferInput<S>;
  type Errors = Partial<Record<keyof Values, string>>;
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);

  const validate = (current: Values): { data: v.InferOutput<S> | null; errors: Errors } => {
    const result = v.safeParse(schema, current);
    return result.success ? { data: result.output, errors: {} } : { data: null, errors: firstMessages(v.flatten(result.issues).nested) as Errors };
  };

  return {
    formRef,
    values,
    errors,
    busy,
    setBusy,
    change: (field: keyof Values) => (event: { target: { value: string } }) => {
      const next = { ...values, [field]: event.target.value };
      setValues(next);
      if (attempted) setErrors(validate(next).errors);
    },
    /** Prevents the page load and validates; the parsed values, or null when a field is wrong or a submit is in flight. */
    submitted(event: FormEvent<HTMLFormElement>): v.InferOutput<S> | null {
      event.preventDefault();
      if (busy) return null;
      setAttempted(true);
      const { data, errors: found } = validate(values);
      setErrors(found);
      if (!data) requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return data;
    },
  };
}
