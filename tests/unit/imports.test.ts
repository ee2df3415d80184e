import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { buildImportGraph, forbiddenImports, formatCycle, importCycles, importsOf, importSpecifiers, reachingPaths } from "#tests/support/imports.ts";

/*
 * Dependencies point one way (docs/architecture.md): contract ← core ← db/server ← web/cli, and
 * no two modules need each other. Read from the sources of src/, web/, db/, cli/, dev/, scripts/
 * and bench/; type-only imports count (they tie the modules together just the same).
 */
const graph = buildImportGraph(resolve(import.meta.dir, "../.."));

describe("the import scanner", () => {
  test("finds the chain of imports through which a file is reached", () => {
    const chain = {
      files: ["a.ts", "b.ts", "c.ts", "d.ts"],
      imports: new Map([
        ["a.ts", new Set(["b.ts"])],
        ["b.ts", new Set(["c.ts"])],
        ["c.ts", new Set<string>()],
        ["d.ts", new Set<string>()],
      ]),
      staticImports: new Map(),
      unresolved: [],
    };
    expect(reachingPaths(chain, "", "c.ts")).toEqual(["a.ts → b.ts → c.ts", "b.ts → c.ts", "c.ts"]);
  });

  test("reads static, type-only, re-exported, side-effect and literal dynamic imports, not commented-out ones", () => {
    const code = [
      `import { a } from "./a.ts";`,
      `import type {`,
      `  B,`,
      `} from '#src/b.ts';`,
      `export { c } from "./c.ts";`,
      `export * from "./d.ts";`,
      `import "./styles.ts";`,
      `const e = () => import("#web/e.tsx");`,
      `const f = (name: string) => import(\`./pages/\${name}.tsx\`);`,
      `// import { g } from "./g.ts";`,
      `/* export { h } from "./h.ts"; */`,
      `const url = "http://example.com"; import { i } from "./i.ts";`,
      `const text = "import x from './j.ts' is an example"; const re = /\\/*/; import { k } from "./k.ts";`,
    ].join("\n");
    expect(importSpecifiers(code)).toEqual(["./a.ts", "#src/b.ts", "./c.ts", "./d.ts", "./styles.ts", "#web/e.tsx", "./i.ts", "./k.ts"]);
  });

  test("tells static imports from type-only and dynamic ones", () => {
    const code = [
      `import { a } from "./a.ts";`,
      `import type { B } from "./b.ts";`,
      `export type { C } from "./c.ts";`,
      `import { type D } from "./d.ts";`,
      `import "./e.ts";`,
      `const f = await import("#dev/f.ts");`,
    ].join("\n");
    expect(importsOf(code)).toEqual([
      { specifier: "./a.ts", kind: "static" },
      { specifier: "./b.ts", kind: "type" },
      { specifier: "./c.ts", kind: "type" },
      // Kept as `import {} from` under verbatimModuleSyntax: the module is still loaded.
      { specifier: "./d.ts", kind: "static" },
      { specifier: "./e.ts", kind: "static" },
      { specifier: "#dev/f.ts", kind: "dynamic" },
    ]);
  });

  test("every relative and aliased import names a file", () => {
    expect(graph.files).toContain("src/server/app.ts");
    expect(graph.unresolved).toEqual([]);
  });
});

describe("import graph", () => {
  test("there is no import cycle", () => {
    expect(importCycles(graph).map(formatCycle)).toEqual([]);
  });

  test("nothing under src/ imports web/ or cli/", () => {
    expect(forbiddenImports(graph, "src/", ["web/", "cli/"])).toEqual([]);
  });

  test("src/ holds no simulator: the fakes and their plumbing live in dev/", () => {
    expect(graph.files.filter((file) => file.startsWith("src/") && /simulat|stripe-sim|fake|mock/i.test(file))).toEqual([]);
  });

  test("the fakes stay out of the product: src/, web/ and cli/ load dev/ only dynamically, when a simulated mode starts it", () => {
    for (const from of ["src/", "web/", "cli/"]) expect(forbiddenImports(graph, from, ["dev/"], { staticOnly: true })).toEqual([]);
  });

  test("the simulators' catalogue stays on the server: nothing under web/, src/core/ or src/contract/ imports dev/, not even its types", () => {
    for (const from of ["web/", "src/core/", "src/contract/"]) expect(forbiddenImports(graph, from, ["dev/"])).toEqual([]);
  });

  test("cli/ reaches the server only through the client: it imports src/client, src/contract and src/core, and nothing imports it", () => {
    expect(forbiddenImports(graph, "cli/", ["src/server/", "dev/", "db/", "web/"])).toEqual([]);
    expect(forbiddenImports(graph, "", ["cli/"]).filter((line) => !line.startsWith("cli/"))).toEqual([]);
  });

  test("the extraction's word list (a large dictionary) stays on the server: no module of web/ but the server's entry reaches it, even through others", () => {
    expect(graph.files).toContain("src/core/extraction/words.ts");
    const paths = reachingPaths(graph, "web/", "src/core/extraction/words.ts");
    expect(paths.filter((path) => !path.startsWith("web/entry.server.tsx →"))).toEqual([]);
  });

  test("src/contract imports no layer above it, src/core none above it either", () => {
    expect(forbiddenImports(graph, "src/contract/", ["src/core/", "src/server/", "src/client/", "db/", "web/"])).toEqual([]);
    expect(forbiddenImports(graph, "src/core/", ["src/server/", "src/client/", "db/", "web/"])).toEqual([]);
  });
});
