// The body of a group's process (test/run.mjs writes one entry module per group that calls runGroup): the group's
// test files run one after another in this one process, their tests on node:test's one root, so the module graph
// (the service, viem, h3) and the loader are paid once per group instead of once per file.
// A file is imported only when the one before it is done: an empty suite named after the file, registered after its
// tests, runs once they have (the root runs its children one at a time, in order), and the root then runs the
// `after` hooks registered so far, the file's and last this one's. So a file's top level never runs during another
// file's tests (a mocked Date, a busy CPU) and its `after` hooks have closed what it opened before the next starts.
// What a file cannot do here and does in its own process, failing the file: crash it. An error thrown outside any
// test (a timer's, an unhandled rejection) fails a test named after the file it came from instead.
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";

const fileOf = new AsyncLocalStorage();
const outside = new AsyncResource("test-group");
for (const event of ["uncaughtException", "unhandledRejection"])
  process.on(event, (error) => {
    const file = fileOf.getStore() ?? "a file of this group";
    outside.runInAsyncScope(() =>
      test(`${file}: ${event}`, () => {
        throw error;
      }),
    );
  });

export async function runGroup(files) {
  for (const file of files) {
    try {
      await fileOf.run(file, () => import(pathToFileURL(file).href));
    } catch (error) {
      outside.runInAsyncScope(() =>
        test(file, () => {
          throw error;
        }),
      );
    }
    const done = new Promise((resolve) => after(resolve));
    describe(file, () => {});
    await done;
  }
}
