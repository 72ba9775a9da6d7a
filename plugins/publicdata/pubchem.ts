import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

const o = v.optional;
/** What the code reads of PUG-REST's property table (at least the best match) and synonym list. */
const PropertyTable = v.object({
  PropertyTable: v.object({
    Properties: v.pipe(
      v.array(
        v.object({
          CID: v.number(),
          MolecularFormula: o(v.string()),
          MolecularWeight: o(v.union([v.string(), v.number()])),
          IUPACName: o(v.string()),
          SMILES: o(v.string()),
          ConnectivitySMILES: o(v.string()),
          InChIKey: o(v.string()),
          XLogP: o(v.number()),
        }),
      ),
      v.minLength(1),
    ),
  }),
});
const Synonyms = v.object({
  InformationList: v.object({ Information: v.array(v.object({ CID: v.number(), Synonym: o(v.array(v.string())) })) }),
});

const properties = "MolecularFormula,MolecularWeight,IUPACName,SMILES,ConnectivitySMILES,InChIKey,XLogP";
const synonymCount = 10;

export default defineEndpoint({
  name: "pubchem",
  method: "GET",
  price: "$0.005",
  summary:
    "A chemical compound from PubChem by name or CID: formula, weight, IUPAC name, SMILES, InChIKey, XLogP, synonyms",
  description:
    "From PubChem PUG-REST (NCBI, public data). A name may match several compounds: the best match is returned and the others listed in " +
    "`otherCids`. Molecular weight is g/mol, as a string at PubChem's precision. An unknown name or CID is a 404.",
  input: v.object({
    name: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(120),
        v.regex(/^[A-Za-z0-9 ,'()[\]+-]+$/, "not a compound name"),
        v.description("Compound name, e.g. aspirin or caffeine"),
      ),
    ),
    cid: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(999_999_999), v.description("PubChem compound id")),
    ),
  }),
  output: v.object({
    cid: v.number(),
    title: v.pipe(v.string(), v.description("PubChem's preferred name (first synonym)")),
    formula: v.nullable(v.string()),
    molecularWeight: v.pipe(v.nullable(v.string()), v.description("g/mol")),
    iupacName: v.nullable(v.string()),
    smiles: v.pipe(v.nullable(v.string()), v.description("With stereochemistry and isotopes")),
    connectivitySmiles: v.pipe(
      v.nullable(v.string()),
      v.description("Without stereochemistry (the former canonical SMILES)"),
    ),
    inchiKey: v.nullable(v.string()),
    xlogp: v.nullable(v.number()),
    synonyms: v.array(v.string()),
    otherCids: v.array(v.number()),
    url: v.string(),
  }),
  example: {
    input: { name: "aspirin" },
    output: {
      cid: 2244,
      title: "aspirin",
      formula: "C9H8O4",
      molecularWeight: "180.16",
      iupacName: "2-acetyloxybenzoic acid",
      smiles: "CC(=O)OC1=CC=CC=C1C(=O)O",
      connectivitySmiles: "CC(=O)OC1=CC=CC=C1C(=O)O",
      inchiKey: "BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
      xlogp: 1.2,
      synonyms: ["aspirin", "ACETYLSALICYLIC ACID", "50-78-2", "2-Acetoxybenzoic acid", "2-(Acetyloxy)benzoic acid"],
      otherCids: [],
      url: "https://pubchem.ncbi.nlm.nih.gov/compound/2244",
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["pubchem"],
  async handler({ input, upstream }) {
    if (!input.name === !input.cid) {
      throw badRequest("give either name or cid", {
        issues: [{ field: "name", message: "exactly one of name and cid is required" }],
      });
    }
    const api = upstream("pubchem");
    const subject = input.cid ? `cid/${input.cid}` : `name/${encodeURIComponent(input.name!)}`;
    const table = await api.json(`/compound/${subject}/property/${properties}/JSON`, PropertyTable, {
      notFoundAs404: true,
    });
    const [best, ...others] = table.PropertyTable.Properties;
    const names = await api.json(`/compound/cid/${best.CID}/synonyms/JSON`, Synonyms, {
      notFoundAs404: true,
    });
    const synonyms = names.InformationList.Information[0]?.Synonym ?? [];
    return {
      cid: best.CID,
      title: synonyms[0] ?? best.IUPACName ?? String(best.CID),
      formula: best.MolecularFormula ?? null,
      molecularWeight: best.MolecularWeight === undefined ? null : String(best.MolecularWeight),
      iupacName: best.IUPACName ?? null,
      smiles: best.SMILES ?? null,
      connectivitySmiles: best.ConnectivitySMILES ?? null,
      inchiKey: best.InChIKey ?? null,
      xlogp: best.XLogP ?? null,
      synonyms: synonyms.slice(0, synonymCount),
      otherCids: others.map((p) => p.CID),
      url: `https://pubchem.ncbi.nlm.nih.gov/compound/${best.CID}`,
    };
  },
});
