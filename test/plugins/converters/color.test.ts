import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import colorEndpoint from "../../../plugins/converters/color.ts";

const service = await startTestService({ plugins: ["converters"] });

async function color(input: InputOf<typeof colorEndpoint>) {
  const out = await service.call(colorEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}

const formats = [
  { name: "a short hex", color: "#f00", hex: "#ff0000", name_: "red" },
  { name: "a name in capitals", color: "RebeccaPurple", hex: "#663399", name_: "rebeccapurple" },
  { name: "rgb() with commas", color: "rgb(0, 128, 0)", hex: "#008000", name_: "green" },
  { name: "space-separated hsl()", color: "hsl(240deg 100% 50%)", hex: "#0000ff", name_: "blue" },
  { name: "hwb()", color: "hwb(0 100% 0%)", hex: "#ffffff", name_: "white" },
  { name: "oklch()", color: "oklch(0.7 0.1 120)", hex: "#96a85e", name_: null },
  { name: "a translucent hex", color: "#ff000080", hex: "#ff000080", name_: null },
];
for (const c of formats) {
  test(`color: reads ${c.name}`, async () => {
    const data = await color({ color: c.color });
    assert.equal(data.hex, c.hex);
    assert.equal(data.name, c.name_);
    assert.equal(data.contrast, undefined);
  });
}

test("color: gives every representation", async () => {
  const data = await color({ color: "#336699" });
  assert.deepEqual(data.rgb, { r: 51, g: 102, b: 153, a: 1 });
  assert.deepEqual(data.hsl, { h: 210, s: 50, l: 40, a: 1 });
  assert.deepEqual(data.hwb, { h: 210, w: 20, b: 40, a: 1 });
  assert.equal(data.css.rgb, "rgb(51, 102, 153)");
  assert.equal(data.luminance, 0.1251);
  assert.equal(data.isDark, true);
  assert.equal(data.closestName, "steelblue");
});

const contrasts = [
  {
    name: "black on white is the maximum 21:1",
    color: "#000",
    against: "#fff",
    ratio: 21,
    aa: true,
    aaaNormal: true,
    aaLarge: true,
  },
  {
    name: "#767676 on white just passes AA",
    color: "#767676",
    against: "white",
    ratio: 4.54,
    aa: true,
    aaaNormal: false,
    aaLarge: true,
  },
  {
    name: "#777 on white just fails AA for normal text",
    color: "#777",
    against: "white",
    ratio: 4.47,
    aa: false,
    aaaNormal: false,
    aaLarge: true,
  },
  {
    name: "a translucent color is blended over the background",
    color: "rgba(0, 0, 0, 0.5)",
    against: "#fff",
    ratio: 3.97,
    aa: false,
    aaaNormal: false,
    aaLarge: true,
  },
  {
    name: "order does not matter",
    color: "#fff",
    against: "#767676",
    ratio: 4.54,
    aa: true,
    aaaNormal: false,
    aaLarge: true,
  },
];
for (const c of contrasts) {
  test(`color: contrast, ${c.name}`, async () => {
    const { contrast } = await color({ color: c.color, against: c.against });
    assert.equal(contrast!.ratio, c.ratio);
    assert.equal(contrast!.aa.normal, c.aa);
    assert.equal(contrast!.aa.large, c.aaLarge);
    assert.equal(contrast!.aaa.normal, c.aaaNormal);
  });
}

const refused = [
  { name: "an unknown color name", input: { color: "blurple" }, field: "color" },
  { name: "a hex with a bad length", input: { color: "#12345" }, field: "color" },
  { name: "an unreadable second color", input: { color: "red", against: "nope" }, field: "against" },
];
for (const c of refused) {
  test(`color: ${c.name} is a 400 on ${c.field}`, async () => {
    const out = await service.call(colorEndpoint, c.input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === c.field),
      JSON.stringify(out.body),
    );
  });
}

const bad = [
  { name: "missing color", query: "", field: "color" },
  { name: "color over 100 characters", query: `color=${"a".repeat(101)}`, field: "color" },
  { name: "empty against", query: "color=red&against=", field: "against" },
];
for (const c of bad) {
  test(`color: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/color?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("color: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/color?color=%23ff0000&against=white");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
