import { createContext, useContext } from "react";
import type { TrackerSource } from "#web/lib/tracker-source.ts";

/** Where the tracker report's parts read from: set once by the page (the owner's tracker or a share link's), read by each part. */
export const TrackerSourceContext = createContext<TrackerSource | null>(null);

export function useTrackerSource(): TrackerSource {
  const source = useContext(TrackerSourceContext);
  if (!source) throw new Error("a tracker report's part is drawn outside a TrackerSourceContext");
  return source;
}
