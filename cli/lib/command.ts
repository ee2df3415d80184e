import { Command } from "commander";
import * as v from "valibot";
import { contextOf, type Context } from "./context.ts";
import { CliError, describeError, EXIT } from "./exit.ts";
import { isInterrupted } from "./interrupt.ts";

/** A command with the house settings: global options in its help, the usage hint after a mistake. */
export function defineCommand(name: string, description: string): Command {
  return new Command(name).description(description).configureHelp({ showGlobalOptions: true }).showHelpAfterError("(add --help for usage)");
}

export type Run<S extends v.GenericSchema, A extends unknown[]> = (input: { context: Context; options: v.InferOutput<S>; args: A }) => Promise<void>;

/**
 * A command's action: its options (with the global ones) parsed with `schema` (a mistake exits 1
 * with the schema's message), the context built, then `run`; whatever it throws is told on
 * stderr and becomes the exit code (EXIT).
 */
export function action<S extends v.GenericSchema, A extends unknown[] = []>(schema: S, run: Run<S, A>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params.at(-1) as Command;
    let server = "the server";
    try {
      const options = parseOptions(schema, command.optsWithGlobals());
      const context = contextOf(command);
      server = context.server;
      await run({ context, options, args: command.processedArgs as A });
    } catch (error) {
      if (isInterrupted()) return;
      const { reason, message } = describeError(error, server);
      process.stderr.write(`error: ${message}\n`);
      process.exitCode = EXIT[reason];
    }
  };
}

/**
 * Options (or an argument, or a request built from them) through a schema; the first issue's
 * message on failure (exit 1), after the flag it came from: by default the issue's path as a flag
 * (`iterations` → `--iterations`), or as `flagOf` names it for a request whose fields are not the flags.
 */
export function parseOptions<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  flagOf: (path: string[]) => string | undefined = defaultFlag,
): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return parsed.output;
  const [issue] = parsed.issues;
  const flag = issue.path ? flagOf(issue.path.map((item) => String(item.key))) : undefined;
  throw new CliError("usage", flag && !issue.message.includes(flag) ? `${flag}: ${issue.message}` : issue.message);
}

function defaultFlag(path: string[]): string | undefined {
  return path.length ? `--${kebab(path.join("."))}` : undefined;
}

/** A repeatable option's values in order (`--query a --query b`), for commander's option parser. */
export const repeatable = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The options schema of a command that has none of its own. */
export const NoOptions = v.object({});

/** A boolean flag in an options schema. */
export const Flag = v.optional(v.boolean(), false);

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
