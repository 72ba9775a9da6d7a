import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound, ServiceError } from "../../core/runtime/errors.ts";

const o = v.optional;
/** What the code reads of Ensembl's lookup answer. */
const Lookup = v.object({
  id: v.string(),
  display_name: o(v.string()),
  species: v.string(),
  object_type: v.string(),
  biotype: o(v.string()),
  description: v.nullish(v.string()),
  assembly_name: o(v.string()),
  seq_region_name: o(v.string()),
  start: o(v.number()),
  end: o(v.number()),
  strand: o(v.number()),
  version: o(v.number()),
  canonical_transcript: o(v.string()),
});

export default defineEndpoint({
  name: "ensembl",
  method: "GET",
  price: "$0.005",
  summary: "A gene from Ensembl by symbol and species, or by Ensembl id: biotype, description, assembly and location",
  description:
    "From the Ensembl REST API (lookup). Coordinates are 1-based on the named assembly (GRCh38 for human). An unknown symbol or id is a 404.",
  input: v.object({
    symbol: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, "not a gene symbol"),
        v.description("Gene symbol, e.g. TP53, BRCA2"),
      ),
    ),
    species: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z]+(_[a-z]+){1,3}$/, "Ensembl species name, e.g. homo_sapiens"),
        v.description("Species, e.g. homo_sapiens, mus_musculus"),
      ),
      "homo_sapiens",
    ),
    id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^ENS[A-Z]*[GTEP]\d{11}(\.\d+)?$/, "not an Ensembl stable id"),
        v.description("Ensembl id, e.g. ENSG00000141510"),
      ),
    ),
  }),
  output: v.object({
    id: v.string(),
    symbol: v.nullable(v.string()),
    species: v.string(),
    objectType: v.pipe(v.string(), v.description("Gene, Transcript, Exon or Translation")),
    biotype: v.nullable(v.string()),
    description: v.nullable(v.string()),
    assembly: v.nullable(v.string()),
    location: v.nullable(v.object({ chromosome: v.string(), start: v.number(), end: v.number(), strand: v.number() })),
    version: v.nullable(v.number()),
    canonicalTranscript: v.nullable(v.string()),
    url: v.string(),
  }),
  example: {
    input: { symbol: "TP53" },
    output: {
      id: "ENSG00000141510",
      symbol: "TP53",
      species: "homo_sapiens",
      objectType: "Gene",
      biotype: "protein_coding",
      description: "tumor protein p53 [Source:HGNC Symbol;Acc:HGNC:11998]",
      assembly: "GRCh38",
      location: { chromosome: "17", start: 7661779, end: 7687538, strand: -1 },
      version: 19,
      canonicalTranscript: "ENST00000269305.9",
      url: "https://www.ensembl.org/Homo_sapiens/Gene/Summary?g=ENSG00000141510",
    },
  },
  cacheTtl: 7 * 86_400,
  upstreams: ["ensembl"],
  async handler({ input, upstream }) {
    if (!input.symbol === !input.id) {
      throw badRequest("give either symbol or id", {
        issues: [{ field: "symbol", message: "exactly one of symbol and id is required" }],
      });
    }
    const path = input.id
      ? `/lookup/id/${input.id.replace(/\.\d+$/, "")}`
      : `/lookup/symbol/${input.species}/${input.symbol}`;
    const found = await upstream("ensembl")
      .json(path, Lookup, { query: { "content-type": "application/json" }, notFoundAs404: true, keepErrorBody: true })
      .catch(refusal);
    const species = found.species;
    return {
      id: found.id,
      symbol: found.display_name ?? null,
      species,
      objectType: found.object_type,
      biotype: found.biotype ?? null,
      description: found.description ?? null,
      assembly: found.assembly_name ?? null,
      location:
        found.seq_region_name && found.start !== undefined && found.end !== undefined
          ? { chromosome: found.seq_region_name, start: found.start, end: found.end, strand: found.strand ?? 0 }
          : null,
      version: found.version ?? null,
      canonicalTranscript: found.canonical_transcript ?? null,
      url: `https://www.ensembl.org/${species.charAt(0).toUpperCase()}${species.slice(1)}/Gene/Summary?g=${found.id}`,
    };
  },
});

/** Ensembl answers an unknown symbol or id with a 400 whose body says so. */
function refusal(error: unknown): never {
  const details =
    error instanceof ServiceError
      ? (error.details as { status?: number; body?: { error?: string } } | undefined)
      : undefined;
  const message = details?.body?.error ?? "";
  if (details?.status === 400 && /not found|no valid lookup/i.test(message)) throw notFound(`Ensembl: ${message}`);
  if (details?.status === 400) throw badRequest(`Ensembl refused the lookup: ${message || "bad request"}`);
  throw error;
}
