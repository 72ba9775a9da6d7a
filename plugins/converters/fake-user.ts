import * as v from "valibot";
import type { Faker } from "@faker-js/faker";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/shared.ts";

type LocaleName = "en_US" | "en_GB" | "de" | "es" | "fr" | "it" | "ja" | "nl" | "pt_BR";
const locales: Record<LocaleName, { country: string; countryCode: string }> = {
  en_US: { country: "United States", countryCode: "US" },
  en_GB: { country: "United Kingdom", countryCode: "GB" },
  de: { country: "Germany", countryCode: "DE" },
  es: { country: "Spain", countryCode: "ES" },
  fr: { country: "France", countryCode: "FR" },
  it: { country: "Italy", countryCode: "IT" },
  ja: { country: "Japan", countryCode: "JP" },
  nl: { country: "Netherlands", countryCode: "NL" },
  pt_BR: { country: "Brazil", countryCode: "BR" },
};
const localeNames = Object.keys(locales) as [LocaleName, ...LocaleName[]];
/** Birthdates are computed against a fixed day, so a seed gives the same people on any date. */
const referenceDate = new Date("2025-01-01T00:00:00Z");
const maxSeed = 2 ** 31 - 1;
const sexes = ["female", "male"] as const;

const user = v.object({
  id: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  fullName: v.string(),
  sex: v.picklist(sexes),
  username: v.string(),
  email: v.pipe(
    v.string(),
    v.description("Always at example.com, example.net or example.org (reserved, never delivered)"),
  ),
  phone: v.string(),
  birthdate: v.pipe(v.string(), v.description("YYYY-MM-DD, age 18-80 on 2025-01-01")),
  address: v.object({
    street: v.string(),
    city: v.string(),
    state: v.string(),
    postcode: v.string(),
    country: v.string(),
    countryCode: v.string(),
  }),
  company: v.string(),
  jobTitle: v.string(),
});

/** faker with every locale is a large module: loaded on the first call, not at boot. */
const library = lazy(() => import("@faker-js/faker"));
const fakers = new Map<string, Faker>();
const fakerFor = async (locale: LocaleName) => {
  const faker = fakers.get(locale);
  if (faker) return faker;
  const { Faker, base, en, ...data } = await library();
  if (!fakers.has(locale)) fakers.set(locale, new Faker({ locale: [data[locale], en, base] }));
  return fakers.get(locale)!;
};

export default defineEndpoint({
  name: "fake-user",
  method: "GET",
  price: "$0.005",
  summary: "Generate realistic fake user profiles for tests and demos, reproducible with a seed",
  description:
    "Pass the returned seed back to get the same users again. No real person's data is used; e-mail domains are reserved example domains.",
  input: v.object({
    count: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("How many users")),
      1,
    ),
    locale: v.optional(
      v.pipe(v.picklist(localeNames), v.description("Names, addresses and phone formats of this locale")),
      "en_US",
    ),
    seed: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(maxSeed),
        v.description("Seed for reproducible output; random when left out"),
      ),
    ),
  }),
  output: v.object({
    seed: v.number(),
    locale: v.string(),
    users: v.array(user),
  }),
  example: {
    input: { count: 1, locale: "de", seed: 42 },
    output: {
      seed: 42,
      locale: "de",
      users: [
        {
          id: "20d9b0fd-3224-4864-b924-57c3890921ff",
          firstName: "Melinda",
          lastName: "Dragu",
          fullName: "Melinda Dragu",
          sex: "female",
          username: "Melinda.Dragu68",
          email: "Melinda.Dragu@example.com",
          phone: "(0635) 519798590",
          birthdate: "1956-05-07",
          address: {
            street: "Am Frankenberg 42",
            city: "Gummersbach",
            state: "Bremen",
            postcode: "51809",
            country: "Germany",
            countryCode: "DE",
          },
          company: "Schäffer-Schima",
          jobTitle: "Senior Identity Executive",
        },
      ],
    },
  },
  async handler({ input }) {
    const seed = input.seed ?? Math.floor(Math.random() * maxSeed);
    const faker = await fakerFor(input.locale);
    // Seeding and generating happen in one synchronous run, so concurrent calls cannot interleave.
    faker.seed(seed);
    const place = locales[input.locale];
    const users = Array.from({ length: input.count }, () => {
      const sex = faker.helpers.arrayElement(sexes);
      const firstName = faker.person.firstName(sex);
      const lastName = faker.person.lastName(sex);
      return {
        id: faker.string.uuid(),
        firstName,
        lastName,
        fullName: faker.person.fullName({ firstName, lastName, sex }),
        sex,
        username: faker.internet.username({ firstName, lastName }),
        email: faker.internet.email({
          firstName,
          lastName,
          provider: faker.helpers.arrayElement(["example.com", "example.net", "example.org"]),
        }),
        phone: faker.phone.number(),
        birthdate: faker.date
          .birthdate({ mode: "age", min: 18, max: 80, refDate: referenceDate })
          .toISOString()
          .slice(0, 10),
        address: {
          street: faker.location.streetAddress(),
          city: faker.location.city(),
          state: faker.location.state(),
          postcode: faker.location.zipCode(),
          country: place.country,
          countryCode: place.countryCode,
        },
        company: faker.company.name(),
        jobTitle: faker.person.jobTitle(),
      };
    });
    return { seed, locale: input.locale, users };
  },
});
