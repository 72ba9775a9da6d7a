import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { readConfig } from "../../core/runtime/config.ts";
import { startTestService } from "../helpers/service.ts";

const dir = join(import.meta.dirname, "../../deploy/kubernetes");
const read = (file: string) => readFileSync(join(dir, file), "utf8");
const kustomization = parse(read("kustomization.yaml"));

/** A kustomize env file as the ConfigMap or Secret it generates: one key per line, comments and blanks left out. */
const envFile = (file: string): Record<string, string> =>
  Object.fromEntries(
    read(file)
      .split("\n")
      .filter((line) => line.trim() && !line.startsWith("#"))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
const config = envFile("config.env");
// secrets.env stays out of git: its example stands for it.
const secrets = envFile("secrets.env.example");

const models = { Deployment, StatefulSet, Service, PodDisruptionBudget, HorizontalPodAutoscaler, ConfigMap, Secret };
const manifests: any[] = [
  ...kustomization.resources.flatMap((file: string) =>
    parseAllDocuments(read(file)).map((doc) => ({ file, ...doc.toJSON() })),
  ),
  { file: "config.env", apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x402-config" }, data: config },
  { file: "secrets.env", apiVersion: "v1", kind: "Secret", metadata: { name: "x402-secrets" }, stringData: secrets },
];
const one = (kind: string, name?: string) => {
  const found = manifests.filter((m) => m.kind === kind && (!name || m.metadata.name === name));
  assert.equal(found.length, 1, `one ${kind} ${name ?? ""}`);
  return found[0];
};
const app = one("Deployment");
const pod = app.spec.template;
const container = pod.spec.containers[0];

test("kubernetes: every manifest validates against the Kubernetes schemas", () => {
  const listed = new Set(kustomization.resources);
  const files = readdirSync(dir).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
  assert.deepEqual(
    files.filter((f) => !listed.has(f)),
    [],
    "every manifest is in kustomization.yaml",
  );
  assert.deepEqual(kustomization.configMapGenerator[0].envs, ["config.env"]);
  assert.deepEqual(kustomization.secretGenerator[0].envs, ["secrets.env"]);
  assert.match(read(".gitignore"), /^secrets\.env$/m);
  for (const { file, ...manifest } of manifests) {
    const Model = models[manifest.kind as keyof typeof models];
    assert.ok(Model, `${file}: ${manifest.kind} is a kind this test validates`);
    assert.doesNotThrow(() => new Model(manifest as any).validate(), `${file}: ${manifest.kind}`);
  }
});

test("kubernetes: a manifest that breaks the schema is refused", () => {
  const broken = structuredClone(app);
  broken.spec.template.spec.containers[0].ports[0].containerPort = "http";
  assert.throws(() => new Deployment(broken).validate(), /containerPort must be integer/);
});

test("kubernetes: readiness and liveness ask the service's own checks, which answer on its port", async () => {
  assert.equal(Number(config.PORT), container.ports.find((p: any) => p.name === "http").containerPort);
  assert.equal(container.readinessProbe.httpGet.path, "/ready");
  assert.equal(container.livenessProbe.httpGet.path, "/health");
  assert.equal(container.startupProbe.httpGet.path, "/health");
  for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe])
    assert.equal(probe.httpGet.port, "http");
  // The readiness report's probes give up after 2 s: the kubelet waits longer than that.
  assert.ok(container.readinessProbe.timeoutSeconds > 2);
  const service = await startTestService({ plugins: ["converters"] });
  assert.equal((await service.request("/ready")).status, 200);
  assert.equal((await service.request("/health")).status, 200);
});

test("kubernetes: the grace period outlasts the preStop pause, SHUTDOWN_TIMEOUT_MS and the process's own margin", () => {
  const [command, seconds] = container.lifecycle.preStop.exec.command;
  assert.equal(command, "sleep");
  // core/main.ts exits on its own 10 s after SHUTDOWN_TIMEOUT_MS; Kubernetes must not kill it first.
  const needed = Number(seconds) + Number(config.SHUTDOWN_TIMEOUT_MS) / 1000 + 10;
  assert.ok(pod.spec.terminationGracePeriodSeconds > needed, `${pod.spec.terminationGracePeriodSeconds} s`);
  assert.equal(app.spec.strategy.rollingUpdate.maxUnavailable, 0);
});

test("kubernetes: the PDB, the autoscaler and the Service select the Deployment's pods", () => {
  const labels = pod.metadata.labels;
  const selects = (selector: Record<string, string>) =>
    Object.entries(selector).every(([key, value]) => labels[key] === value);
  assert.ok(selects(app.spec.selector.matchLabels));
  const pdb = one("PodDisruptionBudget");
  assert.ok(selects(pdb.spec.selector.matchLabels));
  const hpa = one("HorizontalPodAutoscaler");
  assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: "apps/v1", kind: "Deployment", name: app.metadata.name });
  assert.ok(hpa.spec.minReplicas > pdb.spec.maxUnavailable, "a disruption leaves instances serving");
  assert.equal(app.spec.replicas, undefined, "the autoscaler owns the replica count");
  const service = one("Service", app.metadata.name);
  assert.ok(selects(service.spec.selector));
  assert.ok(service.spec.ports.some((p: any) => p.targetPort === "http"));
});

test("kubernetes: the metrics port is annotated for scraping and is the one the service is told to use", () => {
  const annotations = pod.metadata.annotations;
  assert.equal(annotations["prometheus.io/scrape"], "true");
  assert.equal(annotations["prometheus.io/path"], "/metrics");
  assert.equal(annotations["prometheus.io/port"], config.METRICS_PORT);
  assert.equal(
    container.ports.find((p: any) => p.name === "metrics").containerPort,
    Number(annotations["prometheus.io/port"]),
  );
});

test("kubernetes: settings from a ConfigMap the service accepts, keys from a Secret, Redis with an append-only file", () => {
  assert.deepEqual(
    container.envFrom.map((from: any) => from.configMapRef?.name ?? from.secretRef?.name),
    ["x402-config", "x402-secrets"],
  );
  assert.equal(pod.spec.enableServiceLinks, false);
  assert.doesNotThrow(() => readConfig(config));
  for (const key of ["RELAYER_KEY", "FACILITATOR_AUTH", "STORE_URL", "REDIS_PASSWORD"]) {
    assert.ok(key in secrets, `${key} is a secret`);
    assert.ok(!(key in config), `${key} is not in the ConfigMap`);
  }
  const redis = one("StatefulSet", "x402-redis");
  const server = redis.spec.template.spec.containers[0];
  assert.match(server.args.join(" "), /--appendonly yes/);
  assert.match(server.args.join(" "), /--requirepass "\$REDIS_PASSWORD"/);
  assert.match(server.args.join(" "), /test -n "\$REDIS_PASSWORD" \|\|/, "no password, no start");
  assert.equal(server.volumeMounts[0].mountPath, "/data");
  assert.equal(redis.spec.volumeClaimTemplates[0].metadata.name, server.volumeMounts[0].name);
  assert.equal(new URL(secrets.STORE_URL).host, `${one("Service", "x402-redis").metadata.name}:6379`);
});
