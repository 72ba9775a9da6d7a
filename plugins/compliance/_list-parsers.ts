import { XMLParser } from "fast-xml-parser";

/** One designation, as compact as the index needs: the list's own id, names (primary first), what it is listed under. */
export interface ListedEntry {
  id: string;
  kind: "person" | "entity" | "vessel" | "aircraft" | "other";
  names: string[];
  programs: string[];
  /** Digital-currency addresses (OFAC publishes them as identifiers). */
  addresses: { currency: string; address: string }[];
  countries: string[];
  /** ISO date of the designation, when the list gives one. */
  listedOn: string | null;
  /** The entry's own page or legal act, when the list gives one. */
  url: string | null;
}

export interface ParsedList {
  /** ISO 8601 date or time the publisher stamped on the file. */
  publishedAt: string | null;
  entries: ListedEntry[];
}

const repeated = new Set([
  "sdnEntry",
  "program",
  "aka",
  "id",
  "address",
  "nationality",
  "sanctionEntity",
  "nameAlias",
  "regulation",
  "citizenship",
  "INDIVIDUAL",
  "ENTITY",
  "INDIVIDUAL_ALIAS",
  "ENTITY_ALIAS",
  "INDIVIDUAL_ADDRESS",
  "ENTITY_ADDRESS",
  "VALUE",
  "Designation",
  "Name",
  "Address",
  "Nationality",
]);

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => repeated.has(name),
});

type Node = Record<string, any>;
const list = (value: unknown): Node[] =>
  Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value as Node];
const text = (value: unknown): string =>
  typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
const joined = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(" ");
const unique = (values: string[]) => [...new Set(values.filter(Boolean))];

/** "03/07/2024" (month first, OFAC) or day first (UK) to "2024-03-07". */
function slashDate(value: string, order: "mdy" | "dmy"): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const [month, day] = order === "mdy" ? [m[1], m[2]] : [m[2], m[1]];
  return `${m[3]}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

const isoDate = (value: string): string | null => (/^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);

/** OFAC SDN.XML: `sdnList/sdnEntry`, digital-currency addresses as `idList/id` of type "Digital Currency Address - XXX". */
export function parseOfacSdn(body: string): ParsedList {
  const root = xml.parse(body).sdnList ?? {};
  const kinds: Record<string, ListedEntry["kind"]> = {
    individual: "person",
    entity: "entity",
    vessel: "vessel",
    aircraft: "aircraft",
  };
  const entries = list(root.sdnEntry).map((e): ListedEntry => {
    const ids = list(e.idList?.id);
    return {
      id: text(e.uid),
      kind: kinds[text(e.sdnType).toLowerCase()] ?? "other",
      names: unique([
        joined(e.firstName, e.lastName),
        ...list(e.akaList?.aka).map((a) => joined(a.firstName, a.lastName)),
      ]),
      programs: unique(list(e.programList?.program).map(text)),
      addresses: ids
        .filter((i) => text(i.idType).startsWith("Digital Currency Address"))
        .map((i) => ({
          currency: text(i.idType).replace(/^Digital Currency Address\s*-\s*/, ""),
          address: text(i.idNumber),
        })),
      countries: unique([
        ...list(e.addressList?.address).map((a) => text(a.country)),
        ...list(e.nationalityList?.nationality).map((n) => text(n.country)),
      ]),
      listedOn: null,
      url: `https://sanctionssearch.ofac.treas.gov/Details.aspx?id=${text(e.uid)}`,
    };
  });
  return { publishedAt: slashDate(text(root.publshInformation?.Publish_Date), "mdy"), entries };
}

/** EU Financial Sanctions Files, XML 1.1: `export/sanctionEntity` with `nameAlias@wholeName` and `regulation@programme`. */
export function parseEuFsf(body: string): ParsedList {
  const root = xml.parse(body).export ?? {};
  const entries = list(root.sanctionEntity).map((e): ListedEntry => {
    const regulations = list(e.regulation);
    const code = text(e.subjectType?.["@code"]);
    return {
      id: text(e["@euReferenceNumber"]) || text(e["@logicalId"]),
      kind: code === "person" ? "person" : code === "enterprise" ? "entity" : "other",
      names: unique(
        list(e.nameAlias).map(
          (n) => text(n["@wholeName"]) || joined(n["@firstName"], n["@middleName"], n["@lastName"]),
        ),
      ),
      programs: unique(regulations.map((r) => text(r["@programme"]))),
      addresses: [],
      countries: unique([
        ...list(e.address).map((a) => text(a["@countryDescription"])),
        ...list(e.citizenship).map((c) => text(c["@countryDescription"])),
      ]),
      listedOn:
        isoDate(text(e["@designationDate"])) ??
        isoDate(
          regulations
            .map((r) => text(r["@publicationDate"]))
            .filter(Boolean)
            .sort()[0] ?? "",
        ),
      url: text(regulations[0]?.publicationUrl) || null,
    };
  });
  return { publishedAt: text(root["@generationDate"]) || null, entries };
}

/** UN Security Council Consolidated List: `CONSOLIDATED_LIST/INDIVIDUALS/INDIVIDUAL` and `ENTITIES/ENTITY`. */
export function parseUnConsolidated(body: string): ParsedList {
  const root = xml.parse(body).CONSOLIDATED_LIST ?? {};
  const entry =
    (kind: ListedEntry["kind"], aliases: string, places: string) =>
    (e: Node): ListedEntry => ({
      id: text(e.REFERENCE_NUMBER) || text(e.DATAID),
      kind,
      names: unique([
        joined(e.FIRST_NAME, e.SECOND_NAME, e.THIRD_NAME, e.FOURTH_NAME),
        ...list(e[aliases]).map((a) => text(a.ALIAS_NAME)),
      ]),
      programs: unique([text(e.UN_LIST_TYPE)]),
      addresses: [],
      countries: unique([...list(e.NATIONALITY?.VALUE).map(text), ...list(e[places]).map((a) => text(a.COUNTRY))]),
      listedOn: isoDate(text(e.LISTED_ON)),
      url: null,
    });
  return {
    publishedAt: text(root["@dateGenerated"]) || null,
    entries: [
      ...list(root.INDIVIDUALS?.INDIVIDUAL).map(entry("person", "INDIVIDUAL_ALIAS", "INDIVIDUAL_ADDRESS")),
      ...list(root.ENTITIES?.ENTITY).map(entry("entity", "ENTITY_ALIAS", "ENTITY_ADDRESS")),
    ],
  };
}

/** UK Sanctions List (FCDO) XML: `Designations/Designation` with `Names/Name` (Name1..Name6, Name6 the surname). */
export function parseUkSanctions(body: string): ParsedList {
  const root = xml.parse(body).Designations ?? {};
  const kinds: Record<string, ListedEntry["kind"]> = { individual: "person", entity: "entity", ship: "vessel" };
  const designations = list(root.Designation);
  const entries = designations.map((d): ListedEntry => {
    const names = list(d.Names?.Name);
    const primaryFirst = [...names].sort(
      (a, b) =>
        Number(text(b.NameType).toLowerCase() === "primary name") -
        Number(text(a.NameType).toLowerCase() === "primary name"),
    );
    return {
      id: text(d.UniqueID),
      kind: kinds[text(d.IndividualEntityShip).toLowerCase()] ?? "other",
      names: unique(primaryFirst.map((n) => joined(n.Name1, n.Name2, n.Name3, n.Name4, n.Name5, n.Name6))),
      programs: unique([text(d.RegimeName)]),
      addresses: [],
      countries: unique([
        ...list(d.Addresses?.Address).map((a) => text(a.AddressCountry)),
        ...list(d.IndividualDetails?.Individual?.Nationalities?.Nationality).map(text),
      ]),
      listedOn: slashDate(text(d.DateDesignated), "dmy"),
      url: null,
    };
  });
  const updated = designations
    .map((d) => slashDate(text(d.LastUpdated), "dmy"))
    .filter((x): x is string => x !== null)
    .sort();
  const generated = text(root.DateGenerated);
  return { publishedAt: slashDate(generated, "dmy") ?? (generated || updated[updated.length - 1] || null), entries };
}
