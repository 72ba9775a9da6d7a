// A second reporter: collects every failed test and prints them together when the run ends,
// so the last lines of a long run name what failed.
export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== "test:fail") continue;
    const { name, file, line, details } = event.data;
    if (details?.error?.failureType === "subtestsFailed") continue;
    const cause = details?.error?.cause ?? details?.error;
    const message = String(cause?.message ?? cause ?? "")
      .split("\n")
      .slice(0, 6)
      .join("\n    ");
    failed.push(`not ok - ${name}\n    at ${file ?? "?"}${line ? `:${line}` : ""}\n    ${message}`);
  }
  yield failed.length ? `\n# ${failed.length} failed:\n${failed.join("\n")}\n` : "\n# 0 failed\n";
}
