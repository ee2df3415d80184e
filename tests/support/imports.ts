import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/*
 * The project's import graph, read from the source text: which .ts/.tsx file imports which. A
 * small scanner rather than a compiler: comments and the insides of strings are blanked first (a
 * commented-out import, or one quoted in a string, does not count), then `import … from`,
 * `import type … from`, `export … from`, side-effect `import "…"` and `import("…")` with a
 * literal string are read. Relative specifiers and the package.json "imports" aliases (#src/*,
 * #web/*, …) are resolved; packages are left out.
 */

/** The folders whose files make up the product, and the fakes in dev/ (tests are not part of the layering). */
export const SOURCE_DIRS = ["src", "web", "db", "cli", "dev", "scripts", "bench"];

export type ImportGraph = {
  /** Project-relative paths ("web/routes.ts"), sorted. */
  files: string[];
  /** Each file's imports of other scanned files, project-relative. */
  imports: Map<string, Set<string>>;
  /** The same, only those loaded with the importer: neither type-only nor dynamic. */
  staticImports: Map<string, Set<string>>;
  /** Local specifiers (relative or aliased) that name no file. */
  unresolved: Array<{ from: string; specifier: string }>;
};

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/**
 * The code with its comments, and the insides of its strings, template literals and regular
 * expression literals, replaced by spaces (quotes, `${…}` code and line breaks kept, every
 * character at its place). So a commented-out import, or one quoted in a string, is not seen,
 * and `"http://…"` or `/\/*x/` does not start a comment.
 */
function codeOnly(code: string): string {
  let out = "";
  let i = 0;
  /** For each open `${` of a template literal: the brace depth at which it closes. */
  const templates: number[] = [];
  let depth = 0;
  let inTemplate = false;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");

  /** From inside a template literal up to its end or its next `${`. */
  const template = () => {
    let j = i;
    while (j < code.length && code[j] !== "`" && !(code[j] === "$" && code[j + 1] === "{")) j += code[j] === "\\" ? 2 : 1;
    out += blank(code.slice(i, j));
    i = j;
    if (code[i] === "`") {
      out += "`";
      i++;
    } else if (i < code.length) {
      out += "${";
      i += 2;
      templates.push(depth);
      depth++;
    }
    inTemplate = false;
  };

  const regexAllowed = () => {
    const before = out.trimEnd();
    if (before === "") return true;
    const last = before[before.length - 1]!;
    if (/[\w$]/.test(last)) return KEYWORDS_BEFORE_EXPRESSION.has(/[\w$]+$/.exec(before)![0]);
    return !/[)\]}"'`.]/.test(last);
  };

  while (i < code.length) {
    if (inTemplate) {
      template();
      continue;
    }
    const c = code[i]!;
    const next = code[i + 1];
    if (c === "/" && next === "/") {
      const end = code.indexOf("\n", i);
      const stop = end === -1 ? code.length : end;
      out += blank(code.slice(i, stop));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = code.indexOf("*/", i + 2);
      const stop = end === -1 ? code.length : end + 2;
      out += blank(code.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      // A quoted string ends at its quote, or at the line's end (JSX text such as "You're").
      let j = i + 1;
      while (j < code.length && code[j] !== c && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
      out += c + blank(code.slice(i + 1, j)) + (code[j] ?? "");
      i = j + 1;
    } else if (c === "`") {
      out += c;
      i++;
      inTemplate = true;
    } else if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < code.length && code[j] !== "\n" && (inClass || code[j] !== "/")) {
        if (code[j] === "\\") j++;
        else if (code[j] === "[") inClass = true;
        else if (code[j] === "]") inClass = false;
        j++;
      }
      out += "/" + blank(code.slice(i + 1, j)) + (code[j] ?? "");
      i = j + 1;
    } else {
      if (c === "{") depth++;
      if (c === "}") {
        depth--;
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          inTemplate = true;
        }
      }
      out += c;
      i++;
    }
  }
  return out;
}

// Run on the code with strings blanked: group 2 is where the specifier is, read from the source.
const STATIC_FROM = /(?:^|[^\w$.])(?:import|export)\b[^;"'`]*?\bfrom\s*(["'])([^"'\n]*)\1/dg;
const SIDE_EFFECT = /(?:^|[^\w$.])import\s*(["'])([^"'\n]*)\1/dg;
const DYNAMIC = /(?:^|[^\w$.])import\s*\(\s*(["'`])([^"'`\n]*)\1\s*\)/dg;

const TYPE_ONLY = /^[^\w$.]?(?:import|export)\s+type\b/;

/**
 * How a module is imported: "static" (loaded with the importer), "type" (`import type`, erased)
 * or "dynamic" (`import("…")`, loaded when that code runs).
 */
export type ImportKind = "static" | "type" | "dynamic";

/** Every module specifier the code imports or re-exports from, with how, in order of appearance. */
export function importsOf(code: string): Array<{ specifier: string; kind: ImportKind }> {
  const masked = codeOnly(code);
  const found: Array<{ at: number; specifier: string; kind: ImportKind }> = [];
  for (const pattern of [STATIC_FROM, SIDE_EFFECT, DYNAMIC]) {
    for (const match of masked.matchAll(pattern)) {
      const [start, end] = match.indices![2]!;
      const specifier = code.slice(start, end);
      const kind = pattern === DYNAMIC ? "dynamic" : TYPE_ONLY.test(match[0]) ? "type" : "static";
      // A template literal with a `${…}` names no one module.
      if (specifier !== "" && !specifier.includes("${")) found.push({ at: start, specifier, kind });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ specifier, kind }) => ({ specifier, kind }));
}

/** Every module specifier the code imports or re-exports from, in order of appearance. */
export function importSpecifiers(code: string): string[] {
  return importsOf(code).map((found) => found.specifier);
}

/** Resolves a `#…` specifier by package.json "imports" (exact keys and `*` patterns) to a path. */
function aliasResolver(root: string): (specifier: string) => string | undefined {
  const { imports = {} } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { imports?: Record<string, string> };
  const patterns = Object.entries(imports).map(([key, target]) => {
    const [prefix, suffix = ""] = key.split("*") as [string, string?];
    const [targetPrefix, targetSuffix = ""] = target.split("*") as [string, string?];
    return { key, prefix, suffix, targetPrefix, targetSuffix, wildcard: key.includes("*") };
  });
  return (specifier) => {
    for (const p of patterns) {
      if (!p.wildcard) {
        if (specifier === p.key) return join(root, p.targetPrefix);
        continue;
      }
      if (specifier.startsWith(p.prefix) && specifier.endsWith(p.suffix) && specifier.length >= p.prefix.length + p.suffix.length) {
        const middle = specifier.slice(p.prefix.length, specifier.length - p.suffix.length);
        return join(root, p.targetPrefix + middle + p.targetSuffix);
      }
    }
    return undefined;
  };
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

function resolveFile(path: string): string | undefined {
  return [path, `${path}.ts`, `${path}.tsx`, join(path, "index.ts"), join(path, "index.tsx")].find(isFile);
}

/** Reads every .ts/.tsx file under `dirs` (those that exist) of the project at `root`. */
export function buildImportGraph(root: string, dirs: string[] = SOURCE_DIRS): ImportGraph {
  const files = dirs
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => [...new Bun.Glob("**/*.{ts,tsx}").scanSync({ cwd: join(root, dir) })].map((path) => `${dir}/${path}`))
    .filter((path) => !path.split("/").includes("node_modules"))
    .sort();
  const known = new Set(files);
  const alias = aliasResolver(root);
  const imports = new Map<string, Set<string>>();
  const staticImports = new Map<string, Set<string>>();
  const unresolved: ImportGraph["unresolved"] = [];
  for (const file of files) {
    const targets = new Set<string>();
    const staticTargets = new Set<string>();
    for (const { specifier, kind } of importsOf(readFileSync(join(root, file), "utf8"))) {
      if (!specifier.startsWith(".") && !specifier.startsWith("#")) continue; // a package
      const local = specifier.startsWith(".") ? resolve(root, dirname(file), specifier) : alias(specifier);
      const path = local === undefined ? undefined : resolveFile(local);
      if (path === undefined) unresolved.push({ from: file, specifier });
      else {
        const target = relative(root, path).split("\\").join("/");
        // Imports of other files (styles, JSON, tests' helpers) are not part of the graph.
        if (known.has(target)) targets.add(target);
        if (known.has(target) && kind === "static") staticTargets.add(target);
      }
    }
    imports.set(file, targets);
    staticImports.set(file, staticTargets);
  }
  return { files, imports, staticImports, unresolved };
}

/** Strongly connected components (Tarjan): the groups of files that import each other. */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.imports.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      components.push(component.sort());
    }
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return components;
}

/**
 * Every elementary import cycle, each starting at its alphabetically first file and listed
 * without repeating it; shorter cycles first.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component);
    // From each file, the cycles through files after it in order only: each cycle is found once.
    for (const start of component) {
      const path = [start];
      const onPath = new Set(path);
      const walk = (file: string) => {
        for (const target of [...(graph.imports.get(file) ?? [])].sort()) {
          if (!members.has(target) || target < start) continue;
          if (target === start) cycles.push([...path]);
          else if (!onPath.has(target)) {
            path.push(target);
            onPath.add(target);
            walk(target);
            onPath.delete(target);
            path.pop();
          }
        }
      };
      walk(start);
    }
  }
  return cycles.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** "a → b → a" */
export function formatCycle(cycle: string[]): string {
  return [...cycle, cycle[0]].join(" → ");
}

/**
 * Each import from a file under `from` of a file under one of `forbidden`, as "a → b"; of every
 * kind, or only the static ones (`staticOnly`).
 */
export function forbiddenImports(graph: ImportGraph, from: string, forbidden: string[], { staticOnly = false } = {}): string[] {
  const edges = staticOnly ? graph.staticImports : graph.imports;
  return graph.files
    .filter((file) => file.startsWith(from))
    .flatMap((file) =>
      [...(edges.get(file) ?? [])]
        .filter((target) => forbidden.some((dir) => target.startsWith(dir)))
        .sort()
        .map((target) => `${file} → ${target}`),
    );
}

/**
 * Each file under `from` that reaches `target` through imports (static and dynamic: the browser
 * bundle holds both), as "a → … → target", by the shortest path.
 */
export function reachingPaths(graph: ImportGraph, from: string, target: string): string[] {
  return graph.files
    .filter((file) => file.startsWith(from))
    .flatMap((start) => {
      const previous = new Map<string, string>([[start, ""]]);
      const queue = [start];
      while (queue.length > 0) {
        const file = queue.shift()!;
        if (file === target) {
          const path: string[] = [];
          for (let at = file; at !== ""; at = previous.get(at)!) path.unshift(at);
          return [path.join(" → ")];
        }
        for (const next of graph.imports.get(file) ?? []) {
          if (!previous.has(next)) {
            previous.set(next, file);
            queue.push(next);
          }
        }
      }
      return [];
    });
}
