import * as v from "valibot";

/** GET /healthz: the app answers and so does its database. */
export const Health = v.object({ ok: v.literal(true), db: v.picklist(["pglite", "postgres"]) });
export type Health = v.InferOutput<typeof Health>;
