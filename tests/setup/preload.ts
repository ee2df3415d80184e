// Runs once before the test files: the client bundle the server links to must exist and be current.
import { buildAssets } from "../../scripts/build-assets.ts";

await buildAssets({ quiet: true });
