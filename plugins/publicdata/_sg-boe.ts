import { XMLParser } from "fast-xml-parser";
import { upstreamFailed } from "../../core/runtime/errors.ts";

type Node = Record<string, any>;

export interface BoeItem {
  id: string;
  title: string;
  section: string;
  sectionName: string;
  department: string;
  heading: string | null;
  pages: string | null;
  pdfUrl: string | null;
  htmlUrl: string | null;
  xmlUrl: string | null;
}

export interface BoeSummary {
  issue: string | null;
  summaryId: string | null;
  summaryPdf: string | null;
  items: BoeItem[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ["diario", "seccion", "departamento", "epigrafe", "item"].includes(name),
});

const textOf = (node: unknown): string =>
  (node && typeof node === "object" ? String((node as Node)["#text"] ?? "") : String(node ?? "")).trim();
const orNull = (text: string) => text || null;

/** The status block every answer of the BOE open-data API carries. */
export function boeStatus(xml: string): { code: number; text: string } {
  const status = (parser.parse(xml) as Node).response?.status;
  return { code: Number(textOf(status?.code)), text: textOf(status?.text) };
}

/** Flattens a daily summary (`sumario`): sections hold departments, which hold items directly or under headings (`epigrafe`). */
export function parseBoeSummary(xml: string): BoeSummary {
  const sumario = (parser.parse(xml) as Node).response?.data?.sumario as Node | undefined;
  if (!sumario) throw upstreamFailed("boe", "boe answered something other than a summary");
  const diario: Node = sumario.diario?.[0] ?? {};
  const items: BoeItem[] = [];
  for (const seccion of (diario.seccion ?? []) as Node[]) {
    for (const departamento of (seccion.departamento ?? []) as Node[]) {
      const groups: [string | null, Node[]][] = [[null, departamento.item ?? []]];
      for (const epigrafe of (departamento.epigrafe ?? []) as Node[])
        groups.push([String(epigrafe["@nombre"] ?? "") || null, epigrafe.item ?? []]);
      for (const [heading, entries] of groups) {
        for (const item of entries) {
          const pdf = item.url_pdf as Node | string | undefined;
          const first = typeof pdf === "object" ? pdf["@pagina_inicial"] : undefined;
          const last = typeof pdf === "object" ? pdf["@pagina_final"] : undefined;
          items.push({
            id: textOf(item.identificador),
            title: textOf(item.titulo),
            section: String(seccion["@codigo"] ?? ""),
            sectionName: String(seccion["@nombre"] ?? ""),
            department: String(departamento["@nombre"] ?? ""),
            heading,
            pages: first ? (last && last !== first ? `${first}-${last}` : String(first)) : null,
            pdfUrl: orNull(textOf(pdf)),
            htmlUrl: orNull(textOf(item.url_html)),
            xmlUrl: orNull(textOf(item.url_xml)),
          });
        }
      }
    }
  }
  return {
    issue: orNull(String(diario["@numero"] ?? "")),
    summaryId: orNull(textOf(diario.sumario_diario?.identificador)),
    summaryPdf: orNull(textOf(diario.sumario_diario?.url_pdf)),
    items,
  };
}
