import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { boeStatus, parseBoeSummary } from "./_sg-boe.ts";

const sections = ["1", "2A", "2B", "3", "4", "5A", "5B", "5C", "T"] as const;
const announcements = new Set(["5A", "5B", "5C"]);
const text = v.nullable(v.string());

export default defineEndpoint({
  name: "boe",
  method: "GET",
  price: "$0.005",
  summary:
    "Spain's Official State Gazette (BOE): the day's laws, decrees, appointments and notices, filtered by section or words",
  description:
    "From the BOE open-data API (daily summary, XML parsed here); titles are in Spanish. `date` defaults to today (UTC). " +
    "Sections: 1 general provisions, 2A appointments, 2B competitive examinations, 3 other provisions, 4 justice, " +
    "5A-5C announcements, T Constitutional Court. Without `section`, every section except the bulky announcements (5A-5C). A day with " +
    "no issue (Sundays) is a 404; a filter with no match answers an empty list.",
  input: v.object({
    date: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Day of the issue, YYYY-MM-DD; default today"))),
    section: v.optional(v.pipe(v.picklist(sections), v.description("One section, e.g. 1 or 2A"))),
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(100),
        v.description("Words the title or department must contain, any case, e.g. vivienda"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500), v.description("Most items returned")),
      100,
    ),
  }),
  output: v.object({
    date: v.pipe(v.string(), v.description("YYYY-MM-DD")),
    issue: v.pipe(text, v.description("Issue number of the year")),
    summaryId: text,
    summaryPdf: text,
    total: v.pipe(v.number(), v.description("Items matching the filters")),
    items: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("BOE id, e.g. BOE-A-2024-11776")),
        title: v.string(),
        section: v.string(),
        sectionName: v.string(),
        department: v.string(),
        heading: v.pipe(text, v.description("Subject heading (epígrafe)")),
        pages: v.pipe(text, v.description("Pages in the issue's PDF")),
        pdfUrl: text,
        htmlUrl: v.pipe(text, v.description("The item on boe.es")),
        xmlUrl: text,
      }),
    ),
  }),
  example: {
    input: { date: "2024-06-11", section: "1", q: "amnistía" },
    output: {
      date: "2024-06-11",
      issue: "141",
      summaryId: "BOE-S-2024-141",
      summaryPdf: "https://www.boe.es/boe/dias/2024/06/11/pdfs/BOE-S-2024-141.pdf",
      total: 1,
      items: [
        {
          id: "BOE-A-2024-11776",
          title:
            "Ley Orgánica 1/2024, de 10 de junio, de amnistía para la normalización institucional, política y social en Cataluña.",
          section: "1",
          sectionName: "I. Disposiciones generales",
          department: "JEFATURA DEL ESTADO",
          heading: "Amnistía",
          pages: "67553-67575",
          pdfUrl: "https://www.boe.es/boe/dias/2024/06/11/pdfs/BOE-A-2024-11776.pdf",
          htmlUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2024-11776",
          xmlUrl: "https://www.boe.es/diario_boe/xml.php?id=BOE-A-2024-11776",
        },
      ],
    },
  },
  cacheTtl: 3600,
  upstreams: ["boe"],
  async handler({ input, upstream, now }) {
    const date = input.date ?? now().toISOString().slice(0, 10);
    const xml = await upstream("boe").text(`/boe/sumario/${date.replaceAll("-", "")}`, {
      headers: { accept: "application/xml" },
      notFoundAs404: true,
    });
    const status = boeStatus(xml);
    if (status.code === 404) throw notFound(`The BOE published no issue on ${date}`);
    const summary = parseBoeSummary(xml);
    const words = input.q?.toLowerCase();
    const matching = summary.items.filter(
      (item) =>
        (input.section ? item.section === input.section : !announcements.has(item.section)) &&
        (!words || `${item.title} ${item.department}`.toLowerCase().includes(words)),
    );
    return {
      date,
      issue: summary.issue,
      summaryId: summary.summaryId,
      summaryPdf: summary.summaryPdf,
      total: matching.length,
      items: matching.slice(0, input.limit),
    };
  },
});
