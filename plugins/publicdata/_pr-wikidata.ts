/** Reading Wikidata entities: the claims worth answering with, and their values as text. */

export const keyProperties: Record<string, string> = {
  P31: "instance of", P279: "subclass of", P17: "country", P131: "located in", P625: "coordinates", P36: "capital", P1082: "population",
  P27: "citizenship", P106: "occupation", P569: "date of birth", P19: "place of birth", P570: "date of death", P20: "place of death",
  P571: "inception", P576: "dissolved", P112: "founded by", P169: "chief executive", P159: "headquarters", P452: "industry",
  P50: "author", P577: "publication date", P856: "official website", P18: "image",
};

interface DataValue {
  type: string;
  value: any;
}

export interface Claim {
  mainsnak: { snaktype: string; property: string; datavalue?: DataValue };
  rank: "preferred" | "normal" | "deprecated";
}

export interface Entity {
  id: string;
  missing?: string;
  labels?: Record<string, { value: string }>;
  descriptions?: Record<string, { value: string }>;
  aliases?: Record<string, { value: string }[]>;
  claims?: Record<string, Claim[]>;
  sitelinks?: Record<string, { title: string; url?: string }>;
  modified?: string;
}

/** Ids of the items the key claims point at, so their labels can be fetched in one call. */
export const linkedIds = (entity: Entity) =>
  [...new Set(Object.keys(keyProperties).flatMap((p) => usable(entity.claims?.[p]).flatMap((c) => (c.mainsnak.datavalue?.type === "wikibase-entityid" ? [c.mainsnak.datavalue.value.id as string] : []))))];

const usable = (claims: Claim[] = []) => claims.filter((c) => c.rank !== "deprecated" && c.mainsnak.snaktype === "value").slice(0, 10);

/** One claim value as text; items by their label. */
export function valueText(value: DataValue, labels: Map<string, string>): { value: string; id: string | null } {
  switch (value.type) {
    case "wikibase-entityid":
      return { value: labels.get(value.value.id) ?? value.value.id, id: value.value.id };
    case "time": {
      const [, sign, date] = /^([+-])(\d+-\d\d-\d\d)/.exec(value.value.time) ?? [];
      const cut = value.value.precision >= 11 ? 10 : value.value.precision === 10 ? 7 : 4;
      const text = date ? date.replace(/^0+(?=\d{4})/, "").slice(0, cut + (date.indexOf("-") - 4)) : String(value.value.time);
      return { value: sign === "-" ? `-${text}` : text, id: null };
    }
    case "quantity":
      return { value: String(value.value.amount).replace(/^\+/, ""), id: null };
    case "globecoordinate":
      return { value: `${value.value.latitude},${value.value.longitude}`, id: null };
    case "monolingualtext":
      return { value: value.value.text, id: null };
    default:
      return { value: typeof value.value === "string" ? value.value : JSON.stringify(value.value), id: null };
  }
}

export function keyFacts(entity: Entity, labels: Map<string, string>) {
  return Object.entries(keyProperties).flatMap(([property, label]) => {
    const values = usable(entity.claims?.[property]).map((c) => valueText(c.mainsnak.datavalue!, labels));
    return values.length ? [{ property, label, values }] : [];
  });
}
