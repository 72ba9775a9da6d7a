import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

const o = v.optional;
const Timestamp = o(v.pipe(v.string(), v.isoTimestamp()));
/** What the code reads of an RCSB entry (dates as ISO timestamps, read into a Date). */
const RcsbEntry = v.object({
  rcsb_id: v.string(),
  struct: o(v.object({ title: o(v.string()) })),
  struct_keywords: o(v.object({ pdbx_keywords: o(v.string()) })),
  exptl: o(v.array(v.object({ method: v.string() }))),
  rcsb_entry_info: o(
    v.object({
      resolution_combined: o(v.array(v.number())),
      molecular_weight: o(v.number()),
      deposited_atom_count: o(v.number()),
      polymer_entity_count: o(v.number()),
      nonpolymer_entity_count: o(v.number()),
    }),
  ),
  rcsb_accession_info: o(
    v.object({ deposit_date: Timestamp, initial_release_date: Timestamp, revision_date: Timestamp }),
  ),
  rcsb_primary_citation: o(
    v.object({
      title: o(v.string()),
      journal_abbrev: o(v.string()),
      year: o(v.number()),
      pdbx_database_id_doi: o(v.string()),
      rcsb_authors: o(v.array(v.string())),
    }),
  ),
});

const isoOf = (date?: string) => (date ? new Date(date.replace(/\+0000$/, "Z")).toISOString() : null);
const When = v.pipe(v.nullable(v.string()), v.description("ISO 8601"));

export default defineEndpoint({
  name: "pdb",
  method: "GET",
  price: "$0.005",
  summary: "A Protein Data Bank entry by id: title, method, resolution, dates, size and primary citation",
  description:
    "From the RCSB PDB Data API (CC0). Resolution in ångström (null for methods without one); molecular weight in kDa. An unknown id is a 404.",
  input: v.object({
    id: v.pipe(
      v.string(),
      v.regex(/^([0-9][A-Za-z0-9]{3}|pdb_[0-9]{4}[A-Za-z0-9]{4})$/, "not a PDB id"),
      v.description("PDB id, e.g. 4HHB"),
    ),
  }),
  output: v.object({
    id: v.string(),
    title: v.string(),
    keywords: v.nullable(v.string()),
    methods: v.array(v.string()),
    resolutionA: v.nullable(v.number()),
    molecularWeightKDa: v.nullable(v.number()),
    atomCount: v.nullable(v.number()),
    polymerEntities: v.nullable(v.number()),
    ligandEntities: v.nullable(v.number()),
    deposited: When,
    released: When,
    revised: When,
    citation: v.nullable(
      v.object({
        title: v.nullable(v.string()),
        journal: v.nullable(v.string()),
        year: v.nullable(v.number()),
        doi: v.nullable(v.string()),
        authors: v.array(v.string()),
      }),
    ),
    url: v.string(),
  }),
  example: {
    input: { id: "4HHB" },
    output: {
      id: "4HHB",
      title: "THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION",
      keywords: "OXYGEN TRANSPORT",
      methods: ["X-RAY DIFFRACTION"],
      resolutionA: 1.74,
      molecularWeightKDa: 64.74,
      atomCount: 4779,
      polymerEntities: 2,
      ligandEntities: 2,
      deposited: "1984-03-07T00:00:00.000Z",
      released: "1984-07-17T00:00:00.000Z",
      revised: "2024-05-22T00:00:00.000Z",
      citation: {
        title: "The crystal structure of human deoxyhaemoglobin at 1.74 A resolution",
        journal: "J Mol Biol",
        year: 1984,
        doi: "10.1016/0022-2836(84)90472-8",
        authors: ["Fermi, G.", "Perutz, M.F.", "Shaanan, B.", "Fourme, R."],
      },
      url: "https://www.rcsb.org/structure/4HHB",
    },
  },
  cacheTtl: 7 * 86_400,
  upstreams: ["rcsb-data"],
  async handler({ input, upstream }) {
    const e = await upstream("rcsb-data").json(`/core/entry/${input.id.toUpperCase()}`, RcsbEntry, {
      notFoundAs404: true,
    });
    const info: NonNullable<typeof e.rcsb_entry_info> = e.rcsb_entry_info ?? {};
    const c = e.rcsb_primary_citation;
    return {
      id: e.rcsb_id,
      title: e.struct?.title ?? e.rcsb_id,
      keywords: e.struct_keywords?.pdbx_keywords ?? null,
      methods: (e.exptl ?? []).map((x) => x.method),
      resolutionA: info.resolution_combined?.[0] ?? null,
      molecularWeightKDa: info.molecular_weight ?? null,
      atomCount: info.deposited_atom_count ?? null,
      polymerEntities: info.polymer_entity_count ?? null,
      ligandEntities: info.nonpolymer_entity_count ?? null,
      deposited: isoOf(e.rcsb_accession_info?.deposit_date),
      released: isoOf(e.rcsb_accession_info?.initial_release_date),
      revised: isoOf(e.rcsb_accession_info?.revision_date),
      citation: c
        ? {
            title: c.title ?? null,
            journal: c.journal_abbrev ?? null,
            year: c.year ?? null,
            doi: c.pdbx_database_id_doi ?? null,
            authors: c.rcsb_authors ?? [],
          }
        : null,
      url: `https://www.rcsb.org/structure/${e.rcsb_id}`,
    };
  },
});
