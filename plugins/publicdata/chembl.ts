import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

const stringOrNumber = v.nullish(v.union([v.string(), v.number()]));
/** What the code reads of a ChEMBL molecule record. */
const ChemblMolecule = v.object({
  molecule_chembl_id: v.string(),
  pref_name: v.nullable(v.string()),
  molecule_type: v.nullable(v.string()),
  max_phase: stringOrNumber,
  first_approval: v.nullable(v.number()),
  atc_classifications: v.optional(v.array(v.string())),
  molecule_properties: v.nullable(
    v.object({
      full_molformula: stringOrNumber,
      full_mwt: stringOrNumber,
      alogp: stringOrNumber,
      psa: stringOrNumber,
      hba: stringOrNumber,
      hbd: stringOrNumber,
      num_ro5_violations: stringOrNumber,
      qed_weighted: stringOrNumber,
    }),
  ),
  molecule_structures: v.nullable(
    v.object({ canonical_smiles: v.nullish(v.string()), standard_inchi_key: v.nullish(v.string()) }),
  ),
  molecule_synonyms: v.optional(v.array(v.object({ molecule_synonym: v.string() }))),
});
type ChemblMolecule = v.InferOutput<typeof ChemblMolecule>;
const Search = v.object({ molecules: v.array(ChemblMolecule), page_meta: v.object({ total_count: v.number() }) });

const text = v.nullable(v.string());
const Molecule = v.object({
  id: v.pipe(v.string(), v.description("ChEMBL id, e.g. CHEMBL25")),
  title: v.pipe(text, v.description("Preferred name")),
  type: text,
  maxPhase: v.pipe(
    v.nullable(v.string()),
    v.description("Highest development phase as ChEMBL gives it: 4.0 approved, 1.0-3.0 clinical, -1.0 unknown"),
  ),
  firstApproval: v.pipe(v.nullable(v.number()), v.description("Year of first approval")),
  formula: text,
  properties: v.pipe(
    v.object({
      molecularWeight: text,
      alogp: text,
      psa: text,
      hba: v.nullable(v.number()),
      hbd: v.nullable(v.number()),
      ro5Violations: v.nullable(v.number()),
      qed: text,
    }),
    v.description("As ChEMBL publishes them (decimals are strings)"),
  ),
  smiles: text,
  inchiKey: text,
  atc: v.array(v.string()),
  synonyms: v.array(v.string()),
  url: v.pipe(v.string(), v.description("The compound report card")),
});

const idPattern = /^[Cc][Hh][Ee][Mm][Bb][Ll]\d{1,9}$/;

export default defineEndpoint({
  name: "chembl",
  method: "GET",
  price: "$0.005",
  summary: "ChEMBL molecules: drug-likeness properties, development phase, structure and ATC codes by id or name",
  description:
    "From EMBL-EBI ChEMBL (CC BY-SA 3.0). Give `id` (CHEMBL25) for one molecule, or `q` (a name or synonym) to search. An unknown id " +
    "is a 404; a search with no match answers an empty list.",
  input: v.object({
    id: v.optional(
      v.pipe(v.string(), v.regex(idPattern, "not a ChEMBL id"), v.description("ChEMBL molecule id, e.g. CHEMBL25")),
    ),
    q: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(100), v.description("Name or synonym to search, e.g. aspirin")),
    ),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(20),
        v.description("Most molecules returned by a search"),
      ),
      5,
    ),
  }),
  oneOf: [["id"], ["q"]],
  output: v.object({
    total: v.pipe(v.number(), v.description("Molecules ChEMBL matched")),
    molecules: v.array(Molecule),
  }),
  example: {
    input: { id: "CHEMBL25" },
    output: {
      total: 1,
      molecules: [
        {
          id: "CHEMBL25",
          title: "ASPIRIN",
          type: "Small molecule",
          maxPhase: "4.0",
          firstApproval: 1950,
          formula: "C9H8O4",
          properties: {
            molecularWeight: "180.16",
            alogp: "1.31",
            psa: "63.60",
            hba: 3,
            hbd: 1,
            ro5Violations: 0,
            qed: "0.55",
          },
          smiles: "CC(=O)Oc1ccccc1C(=O)O",
          inchiKey: "BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
          atc: ["A01AD05", "B01AC06", "N02BA01"],
          synonyms: ["Acetylsalicylic Acid", "Aspirin"],
          url: "https://www.ebi.ac.uk/chembl/compound_report_card/CHEMBL25/",
        },
      ],
    },
  },
  cacheTtl: 7 * 24 * 3600,
  timeoutMs: 20_000,
  upstreams: ["chembl"],
  async handler({ input, upstream }) {
    const api = upstream("chembl");
    if (input.id) {
      const molecule = await api.json(`/molecule/${input.id.toUpperCase()}.json`, ChemblMolecule, {
        notFoundAs404: true,
      });
      return { total: 1, molecules: [moleculeOf(molecule)] };
    }
    const found = await api.json("/molecule/search.json", Search, {
      query: { q: input.q, limit: input.limit },
    });
    return { total: found.page_meta.total_count, molecules: found.molecules.slice(0, input.limit).map(moleculeOf) };
  },
});

const asText = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : String(value);
const asNumber = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === "" ? null : Number(value);

function moleculeOf(m: ChemblMolecule) {
  const p: Partial<NonNullable<ChemblMolecule["molecule_properties"]>> = m.molecule_properties ?? {};
  return {
    id: m.molecule_chembl_id,
    title: m.pref_name,
    type: m.molecule_type,
    maxPhase: asText(m.max_phase),
    firstApproval: m.first_approval,
    formula: asText(p.full_molformula),
    properties: {
      molecularWeight: asText(p.full_mwt),
      alogp: asText(p.alogp),
      psa: asText(p.psa),
      hba: asNumber(p.hba),
      hbd: asNumber(p.hbd),
      ro5Violations: asNumber(p.num_ro5_violations),
      qed: asText(p.qed_weighted),
    },
    smiles: m.molecule_structures?.canonical_smiles ?? null,
    inchiKey: m.molecule_structures?.standard_inchi_key ?? null,
    atc: [...(m.atc_classifications ?? [])].sort(),
    synonyms: [...new Set((m.molecule_synonyms ?? []).map((s) => s.molecule_synonym))].sort(),
    url: `https://www.ebi.ac.uk/chembl/compound_report_card/${m.molecule_chembl_id}/`,
  };
}
