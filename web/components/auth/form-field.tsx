import { useId, type ComponentProps } from "react";
import { Input } from "#web/shared-chunk.ts";

type FormFieldProps = Omit<ComponentProps<"input">, "id"> & { label: string; error?: string | undefined };

/** A labelled input with its validation message underneath, tied to it for screen readers. */
export function FormField({ label, error, ...input }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm leading-none font-medium">
        {label}
      </label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      {error ? (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Valibot's flattened issues → the first message of each field. */
export function firstMessages(nested: Partial<Record<string, readonly string[] | undefined>> | undefined): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const [field, list] of Object.entries(nested ?? {})) if (list?.[0]) messages[field] = list[0];
  return messages;
}

/** Moves focus to the first field with a message, in form order. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>(':is(input, textarea, select)[aria-invalid="true"]')?.focus();
}
