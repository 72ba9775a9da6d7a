import { lazy } from "../../core/shared.ts";
import { datasetVersion } from "./_pr-datasets.ts";

const holidaysLibrary = lazy(() => import("date-holidays").then((m) => m.default));

/** Public holidays of a country from the bundled date-holidays rules, or undefined when it does not know the country. */
export async function localHolidays(country: string, year: number) {
  const Holidays = await holidaysLibrary();
  if (!(country in new Holidays().getCountries())) return undefined;
  const calendar = new Holidays(country);
  const [local = "en"] = calendar.getLanguages();
  const localNames = new Map(calendar.getHolidays(year, local).map((h) => [`${h.date}|${h.rule}`, h.name]));
  const holidays = calendar
    .getHolidays(year, "en")
    .filter((h) => h.type === "public")
    .map((h) => ({
      date: h.date.slice(0, 10),
      name: h.name,
      localName: localNames.get(`${h.date}|${h.rule}`) ?? h.name,
      global: true,
      regions: [] as string[],
      types: ["Public"],
    }));
  return { holidays, source: datasetVersion("date-holidays") };
}
