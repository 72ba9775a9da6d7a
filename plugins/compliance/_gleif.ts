import * as v from "valibot";

/** ISO 17442: 18 alphanumerics and 2 check digits, the whole code (letters as 10..35) being 1 modulo 97. */
export function isLei(value: string): boolean {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(value)) return false;
  let remainder = 0;
  for (const char of value) {
    const digits = String(parseInt(char, 36));
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

const s = v.nullish(v.string());
const GleifAddress = v.object({
  addressLines: v.nullish(v.array(v.string())),
  city: s,
  region: s,
  country: s,
  postalCode: s,
});
type GleifAddress = v.InferOutput<typeof GleifAddress>;

/** The parts of a GLEIF `lei-records` resource (JSON:API) this service reads. */
export const GleifRecord = v.object({
  id: v.string(),
  attributes: v.object({
    lei: v.string(),
    entity: v.object({
      legalName: v.nullish(v.object({ name: s })),
      otherNames: v.nullish(v.array(v.object({ name: s }))),
      legalAddress: v.nullish(GleifAddress),
      headquartersAddress: v.nullish(GleifAddress),
      registeredAs: s,
      jurisdiction: s,
      category: s,
      legalForm: v.nullish(v.object({ id: s })),
      status: s,
    }),
    registration: v.object({
      initialRegistrationDate: s,
      lastUpdateDate: s,
      status: s,
      nextRenewalDate: s,
      managingLou: s,
    }),
    bic: v.nullish(v.union([v.array(v.string()), v.string()])),
  }),
});
export type GleifRecord = v.InferOutput<typeof GleifRecord>;

const Address = v.object({
  lines: v.array(v.string()),
  city: v.nullable(v.string()),
  region: v.pipe(v.nullable(v.string()), v.description("ISO 3166-2")),
  country: v.nullable(v.string()),
  postalCode: v.nullable(v.string()),
});

export const LeiRecord = v.object({
  lei: v.string(),
  legalName: v.string(),
  otherNames: v.array(v.string()),
  entityStatus: v.pipe(v.nullable(v.string()), v.description("ACTIVE or INACTIVE")),
  registrationStatus: v.pipe(v.nullable(v.string()), v.description("ISSUED, LAPSED, RETIRED, ANNULLED, ...")),
  category: v.nullable(v.string()),
  jurisdiction: v.nullable(v.string()),
  legalFormId: v.pipe(v.nullable(v.string()), v.description("ISO 20275 entity legal form code")),
  registeredAs: v.pipe(v.nullable(v.string()), v.description("Number in the business register")),
  legalAddress: v.nullable(Address),
  headquartersAddress: v.nullable(Address),
  initialRegistrationDate: v.nullable(v.string()),
  lastUpdateDate: v.nullable(v.string()),
  nextRenewalDate: v.nullable(v.string()),
  managingLou: v.pipe(v.nullable(v.string()), v.description("LEI of the issuer managing the record")),
  bic: v.array(v.string()),
  url: v.pipe(v.string(), v.description("The record in GLEIF's search")),
});

const address = (a?: GleifAddress | null) =>
  a
    ? {
        lines: a.addressLines ?? [],
        city: a.city ?? null,
        region: a.region ?? null,
        country: a.country ?? null,
        postalCode: a.postalCode ?? null,
      }
    : null;

export function leiRecord({
  attributes: { lei, entity, registration, bic },
}: GleifRecord): v.InferOutput<typeof LeiRecord> {
  return {
    lei,
    legalName: entity.legalName?.name ?? "",
    otherNames: (entity.otherNames ?? []).map((n) => n.name ?? "").filter(Boolean),
    entityStatus: entity.status ?? null,
    registrationStatus: registration.status ?? null,
    category: entity.category ?? null,
    jurisdiction: entity.jurisdiction ?? null,
    legalFormId: entity.legalForm?.id ?? null,
    registeredAs: entity.registeredAs ?? null,
    legalAddress: address(entity.legalAddress),
    headquartersAddress: address(entity.headquartersAddress),
    initialRegistrationDate: registration.initialRegistrationDate ?? null,
    lastUpdateDate: registration.lastUpdateDate ?? null,
    nextRenewalDate: registration.nextRenewalDate ?? null,
    managingLou: registration.managingLou ?? null,
    bic: Array.isArray(bic) ? bic : bic ? [bic] : [],
    url: `https://search.gleif.org/#/record/${lei}`,
  };
}
