// Loaded into each test process (a file's, or a group's entry module) by `TEST_CPU=1 node test/run.mjs`: at exit it appends the process's CPU time
// (user + system, its own and that of the processes it started and waited for: anvil, redis-server, a service) to
// the table run.mjs prints, with its peak resident memory. Read from /proc (Linux): Node reports its own usage only.
import { appendFileSync, readFileSync } from "node:fs";
import { relative } from "node:path";

const table = process.env.TEST_CPU_TABLE;
const file = process.argv[1] && relative(process.cwd(), process.argv[1]);
if (table && (file?.endsWith(".test.ts") || file?.endsWith(".group.mjs"))) {
  process.once("exit", () => {
    // Fields 14-17 of /proc/self/stat: utime, stime, cutime, cstime, in clock ticks (100 a second on Linux).
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    const peakKb = Number(readFileSync("/proc/self/status", "utf8").match(/VmHWM:\s*(\d+)/)?.[1]);
    const line = {
      file,
      own: (utime + stime) / 100,
      children: (cutime + cstime) / 100,
      wall: process.uptime(),
      peakMb: peakKb / 1024,
    };
    appendFileSync(table, `${JSON.stringify(line)}\n`);
  });
}
