/*
 * A provider's identity in a tracker's runs (ADR 050): the model versions that answered,
 * each with the web-search tool it was asked with, as a sorted set. The alerts restart a
 * provider's series, and the trend marks its chart, where a version it had not used appears.
 */

/** A provider's model versions in a run, sorted and without repeats ("m-1, m-2" and "m-2, m-1" are one set). */
export function versionSet(versions: readonly string[]): string[] {
  return [...new Set(versions.flatMap((version) => version.split(", ")).filter(Boolean))].sort();
}

/** A provider's identity in a run: the model version that answered and the web-search tool it was asked with ("claude-haiku-5-5 (web_search_20260318)"). */
export function modelIdentity(modelVersion: string, searchTool: string | undefined): string {
  return searchTool ? `${modelVersion} (${searchTool})` : modelVersion;
}

/**
 * Whether `identity` was seen among `seen`: the same model and tool, or the same model where one
 * side was kept before tools were (a rollup written before them is not a change of model).
 */
export function seenBefore(identity: string, seen: ReadonlySet<string>): boolean {
  if (seen.has(identity)) return true;
  const model = identity.replace(/ \([^()]*\)$/, "");
  return seen.has(model) || (model === identity && [...seen].some((other) => other.replace(/ \([^()]*\)$/, "") === model));
}

/**
 * Per run (oldest first), whether the provider answered with a version it had not used in the runs
 * before: "m-1, m-2" after "m-2, m-1" is no change, and a rollout that comes and goes is new once.
 * The first run with versions is never new (there is nothing before it to differ from).
 */
export function newModelAt(sets: ReadonlyArray<readonly string[]>): boolean[] {
  const seen = new Set<string>();
  return sets.map((set) => {
    const fresh = seen.size > 0 && set.some((version) => !seenBefore(version, seen));
    for (const version of set) seen.add(version);
    return fresh;
  });
}
