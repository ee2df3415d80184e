import * as v from "valibot";

/** GET /api/pro-status. */
export const ProStatus = v.object({ isPro: v.boolean() });
export type ProStatus = v.InferOutput<typeof ProStatus>;
