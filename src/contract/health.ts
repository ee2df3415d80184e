import * as v from "valibot";
import { ErrorBody } from "./errors.ts";

/** GET /healthz: the app answers and so does its database. */
export const Health = v.object({ ok: v.literal(true), db: v.picklist(["pglite", "postgres"]) });
export type Health = v.InferOutput<typeof Health>;

/** GET /healthz when the database cannot take a write: 503 with Retry-After. */
export const HealthFailure = ErrorBody;
