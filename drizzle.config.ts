import { defineConfig } from "drizzle-kit";

// `bunx drizzle-kit generate --name <what>` writes db/migrations/NNNN_<what>.sql
// and db/migrations/meta/; both are applied at start-up by db/migrate.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
  strict: true,
  verbose: true,
});
