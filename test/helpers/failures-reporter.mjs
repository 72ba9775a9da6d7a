// A second reporter: collects every failed test and prints them together when the run ends,
// so the last lines of a long run name what failed.
// A test names the file it is declared in. In a group's process (test/run.mjs), a file that fails to load or throws
// outside its tests fails a test named after the file (test/helpers/test-group.mjs), and a failure of the whole
// process names the group and the file it was running: the first of its files whose end-of-file suite has not passed.
import { readFileSync } from "node:fs";

const groups = process.env.TEST_GROUPS ? JSON.parse(readFileSync(process.env.TEST_GROUPS, "utf8")) : {};
const groupRunner = new URL("./test-group.mjs", import.meta.url).pathname;

export default async function* failures(source) {
  const failed = [];
  const done = new Set();
  for await (const event of source) {
    if (event.type === "test:pass") done.add(event.data.name);
    if (event.type !== "test:fail") continue;
    const { name, file, line, details } = event.data;
    if (details?.error?.failureType === "subtestsFailed") continue;
    const cause = details?.error?.cause ?? details?.error;
    const message = String(cause?.message ?? cause ?? "")
      .split("\n")
      .slice(0, 6)
      .join("\n    ");
    const group = groups[file];
    const where = group
      ? `${group.files.find((f) => !done.has(f)) ?? group.files.at(-1)} (in the process of ${group.label})`
      : file === groupRunner
        ? name.replace(/\.test\.ts\b.*/, ".test.ts")
        : `${file ?? "?"}${line ? `:${line}` : ""}`;
    failed.push(`not ok - ${name === file && group ? group.label : name}\n    at ${where}\n    ${message}`);
  }
  yield failed.length ? `\n# ${failed.length} failed:\n${failed.join("\n")}\n` : "\n# 0 failed\n";
}
