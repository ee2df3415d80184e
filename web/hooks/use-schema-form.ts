import { useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { firstMessages, focusFirstInvalid } from "#web/components/auth/form-field.tsx";

type Fields = Record<string, unknown>;
type TextFields<T> = { [K in keyof T]-?: string extends T[K] ? K : never }[keyof T];

/**
 * Where an issue's message shows: the form field for its dotted path ("brand.name"), and the
 * message in the form's words. By default a path is its field and the message is the schema's.
 */
export type PlaceIssue = (path: string, message: string) => [field: string, message: string];

/**
 * A form checked by one contract schema (the server's own): first message per field, shown once
 * a submit was tried and then kept live as the user types; focus goes to the first bad field.
 * Text fields change with `change(field)`, any other (lists, choices) with `set(field, value)`.
 */
export function useSchemaForm<S extends v.GenericSchema<Fields, unknown>>(schema: S, initial: v.InferInput<S>, placeIssue?: PlaceIssue) {
  type Values = v.InferInput<S>;
  type Errors = Partial<Record<keyof Values | (string & {}), string>>;
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);

  const validate = (current: Values): { data: v.InferOutput<S> | null; errors: Errors } => {
    const result = v.safeParse(schema, current);
    if (result.success) return { data: result.output, errors: {} };
    const messages = firstMessages(v.flatten(result.issues).nested);
    if (!placeIssue) return { data: null, errors: messages as Errors };
    const placed: Record<string, string> = {};
    for (const [path, message] of Object.entries(messages)) {
      const [field, text] = placeIssue(path, message);
      placed[field] ??= text;
    }
    return { data: null, errors: placed as Errors };
  };

  const set = <K extends keyof Values>(field: K, value: Values[K]) => update({ [field]: value } as unknown as Partial<Values>);

  /** Several fields at once (questions and their tags): one `set` after another would each start from the same values. */
  const update = (patch: Partial<Values>) => {
    const next = { ...values, ...patch };
    setValues(next);
    if (attempted) setErrors(validate(next).errors);
  };

  return {
    formRef,
    values,
    errors,
    update,
    busy,
    setBusy,
    set,
    /** Shows a message on a field that the schema could not know of (the server's refusal of its value), and focuses it. */
    fail(field: keyof Values & string, message: string) {
      setErrors((current) => ({ ...current, [field]: message }));
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
    },
    change: (field: TextFields<Values>) => (event: { target: { value: string } }) => set(field, event.target.value as Values[typeof field]),
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
