// The package as a user imports it: package.json's `exports` names the entry point, the
// module has no dependency, and index.d.ts declares exactly what index.js exports.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as rules from "../index.js";

const PACKAGE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf-8"));

test("the package's name imports the entry point its exports name", async () => {
  assert.equal(PACKAGE.type, "module");
  assert.equal(PACKAGE.exports["."].default, "./index.js");
  const imported = await import(PACKAGE.name); // a package may import itself by its name
  assert.equal(imported.Board, rules.Board);
  assert.equal(imported.replay, rules.replay);
});

test("the module has no dependency", () => {
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "bundleDependencies"]) {
    assert.equal(PACKAGE[field], undefined, field);
  }
  for (const name of ["index", "errors", "cards", "variant", "codes", "deal", "notation", "board", "replay"]) {
    const source = readFileSync(new URL(`../${name}.js`, import.meta.url), "utf-8");
    const imports = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/g)].map((m) => m[1]);
    assert.ok(imports.length > 0 || name === "errors", name);
    for (const path of imports) assert.match(path, /^\.\/[a-z]+\.js$/, `${name}.js imports ${path}`);
  }
});

test("index.d.ts declares every export of index.js, and nothing else", () => {
  const declarations = readFileSync(new URL("../index.d.ts", import.meta.url), "utf-8");
  const declared = new Set([...declarations.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual([...declared].sort(), Object.keys(rules).sort());
});
