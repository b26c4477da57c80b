// npm pack's hooks: the package carries the test vectors of spider-solver's data/ folder
// (RULES.md §9.2 Check values and test vectors, §12 Replay, §13.6 Best column (auto-place)),
// so that its tests pass where it is installed. `copy` puts
// them in vectors/ before the tarball is made, `remove` takes them out after; in the
// repository the tests read data/ itself.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";

const FILES = ["deal_vectors.json", "replay_vectors.json", "best_target_vectors.json"];
const DATA = new URL("../../../data/", import.meta.url);
const VECTORS = new URL("../vectors/", import.meta.url);

const command = process.argv[2];
if (command === "copy") {
  mkdirSync(VECTORS, { recursive: true });
  for (const name of FILES) copyFileSync(new URL(name, DATA), new URL(name, VECTORS));
} else if (command === "remove") {
  rmSync(VECTORS, { recursive: true, force: true });
} else {
  console.error("usage: node scripts/vectors.js copy|remove");
  process.exit(2);
}
