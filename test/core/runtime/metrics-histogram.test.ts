import { test } from "node:test";
import assert from "node:assert/strict";
import { Histogram, Registry } from "prom-client";
import { metrics, registry } from "../../../core/runtime/prometheus.ts";

/** The series of one label value, each line's labels in name order (Prometheus reads them in any order). */
const seriesOf = (text: string, labelValue: string) =>
  text
    .split("\n")
    .filter((line) => line.includes(`"${labelValue}"`))
    .map((line) => {
      const [, name, labels, value] = /^(\w+)\{(.*)\} (.*)$/.exec(line)!;
      return `${name}{${labels.split(",").sort().join(",")}} ${value}`;
    })
    .sort();

test("a tallied histogram reads on /metrics exactly as prom-client's own histogram fed the same observations", async () => {
  const name = "upstream_request_duration_seconds";
  const reference = new Registry();
  const own = new Histogram({
    name,
    help: "Exchange time with an upstream",
    labelNames: ["upstream"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [reference],
  });
  const observations = [0.001, 0.05, 0.07, 0.1, 0.3, 2.5, 9.99, 10, 11, 0.05];
  for (const [upstream, values] of [
    ["histogram-test-a", observations],
    ["histogram-test-b", observations.slice(3)],
  ] as const) {
    for (const value of values) {
      metrics.upstreamSeconds.observe({ upstream }, value);
      own.observe({ upstream }, value);
    }
  }
  metrics.upstreamSeconds.zero({ upstream: "histogram-test-c" });
  own.zero({ upstream: "histogram-test-c" });

  const ours = await registry.getSingleMetricAsString(name);
  const theirs = await reference.getSingleMetricAsString(name);
  for (const upstream of ["histogram-test-a", "histogram-test-b", "histogram-test-c"]) {
    const series = seriesOf(ours, upstream);
    assert.equal(series.length, 8 + 3, `${upstream}: 8 bounds, +Inf, _sum and _count`);
    assert.deepEqual(series, seriesOf(theirs, upstream));
  }
  assert.deepEqual(ours.split("\n").slice(0, 2), theirs.split("\n").slice(0, 2), "the same HELP and TYPE lines");
});
