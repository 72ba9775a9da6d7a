/** Reading Wikidata entities: the claims worth answering with, and their values as text. */
import * as v from "valibot";

export const keyProperties: Record<string, string> = {
  P31: "instance of",
  P279: "subclass of",
  P17: "country",
  P131: "located in",
  P625: "coordinates",
  P36: "capital",
  P1082: "population",
  P27: "citizenship",
  P106: "occupation",
  P569: "date of birth",
  P19: "place of birth",
  P570: "date of death",
  P20: "place of death",
  P571: "inception",
  P576: "dissolved",
  P112: "founded by",
  P169: "chief executive",
  P159: "headquarters",
  P452: "industry",
  P50: "author",
  P577: "publication date",
  P856: "official website",
  P18: "image",
};

const o = v.optional;
/** What the code reads of a claim's value, by Wikibase value type. */
const DataValue = v.variant("type", [
  v.object({ type: v.literal("wikibase-entityid"), value: v.object({ id: v.string() }) }),
  v.object({ type: v.literal("time"), value: v.object({ time: v.string(), precision: v.number() }) }),
  v.object({ type: v.literal("quantity"), value: v.object({ amount: v.string() }) }),
  v.object({ type: v.literal("globecoordinate"), value: v.object({ latitude: v.number(), longitude: v.number() }) }),
  v.object({ type: v.literal("monolingualtext"), value: v.object({ text: v.string() }) }),
  v.object({ type: v.literal("string"), value: v.string() }),
]);
type DataValue = v.InferOutput<typeof DataValue>;
const Claim = v.object({ mainsnak: v.object({ snaktype: v.string(), datavalue: o(DataValue) }), rank: v.string() });
type Claim = v.InferOutput<typeof Claim>;
const English = <S extends v.GenericSchema>(schema: S) => o(v.object({ en: o(schema) }));
const Text = v.object({ value: v.string() });

/** What the code reads of a Wikidata entity (English only, the key properties' claims only); `missing` marks an unknown id. */
export const Entity = v.object({
  missing: o(v.string()),
  labels: English(Text),
  descriptions: English(Text),
  aliases: English(v.array(Text)),
  claims: o(
    v.object(
      Object.fromEntries(Object.keys(keyProperties).map((p) => [p, o(v.array(Claim))])) as Record<
        string,
        v.OptionalSchema<v.ArraySchema<typeof Claim, undefined>, undefined>
      >,
    ),
  ),
  sitelinks: o(v.object({ enwiki: o(v.object({ url: o(v.string()) })) })),
  modified: o(v.string()),
});
export type Entity = v.InferOutput<typeof Entity>;
/** Only the English labels, of the items the key claims point at. */
export const Labels = v.object({ entities: v.record(v.string(), v.object({ labels: English(Text) })) });

/** Ids of the items the key claims point at, so their labels can be fetched in one call. */
export const linkedIds = (entity: Entity) => [
  ...new Set(
    Object.keys(keyProperties).flatMap((p) =>
      usable(entity.claims?.[p]).flatMap((c) =>
        c.mainsnak.datavalue?.type === "wikibase-entityid" ? [c.mainsnak.datavalue.value.id] : [],
      ),
    ),
  ),
];

const usable = (claims: Claim[] = []) =>
  claims.filter((c) => c.rank !== "deprecated" && c.mainsnak.snaktype === "value").slice(0, 10);

/** One claim value as text; items by their label. */
export function valueText(value: DataValue, labels: Map<string, string>): { value: string; id: string | null } {
  switch (value.type) {
    case "wikibase-entityid":
      return { value: labels.get(value.value.id) ?? value.value.id, id: value.value.id };
    case "time": {
      const [, sign, date] = /^([+-])(\d+-\d\d-\d\d)/.exec(value.value.time) ?? [];
      const cut = value.value.precision >= 11 ? 10 : value.value.precision === 10 ? 7 : 4;
      const text = date
        ? date.replace(/^0+(?=\d{4})/, "").slice(0, cut + (date.indexOf("-") - 4))
        : String(value.value.time);
      return { value: sign === "-" ? `-${text}` : text, id: null };
    }
    case "quantity":
      return { value: String(value.value.amount).replace(/^\+/, ""), id: null };
    case "globecoordinate":
      return { value: `${value.value.latitude},${value.value.longitude}`, id: null };
    case "monolingualtext":
      return { value: value.value.text, id: null };
    case "string":
      return { value: value.value, id: null };
  }
}

export function keyFacts(entity: Entity, labels: Map<string, string>) {
  return Object.entries(keyProperties).flatMap(([property, label]) => {
    const values = usable(entity.claims?.[property]).map((c) => valueText(c.mainsnak.datavalue!, labels));
    return values.length ? [{ property, label, values }] : [];
  });
}
