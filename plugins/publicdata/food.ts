import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";

const fields = [
  "product_name",
  "brands",
  "quantity",
  "categories",
  "nutriscore_grade",
  "nova_group",
  "ecoscore_grade",
  "allergens_tags",
  "ingredients_text",
  "image_url",
  "nutriments",
].join(",");

/** Our name -> Open Food Facts' per-100 g nutriment key. */
const per100g = {
  energyKcal: "energy-kcal_100g",
  fat: "fat_100g",
  saturatedFat: "saturated-fat_100g",
  carbohydrates: "carbohydrates_100g",
  sugars: "sugars_100g",
  fiber: "fiber_100g",
  proteins: "proteins_100g",
  salt: "salt_100g",
} as const;

const o = v.optional;
const Nutriment = o(v.union([v.number(), v.string()]));
/** What the code reads of Open Food Facts' product answer (`status` 1 found, 0 not). */
const OffAnswer = v.object({
  status: v.number(),
  product: o(
    v.object({
      product_name: o(v.string()),
      brands: o(v.string()),
      quantity: o(v.string()),
      categories: o(v.string()),
      nutriscore_grade: o(v.string()),
      nova_group: o(v.number()),
      ecoscore_grade: o(v.string()),
      allergens_tags: o(v.array(v.string())),
      ingredients_text: o(v.string()),
      image_url: o(v.string()),
      nutriments: o(
        v.object({
          "energy-kcal_100g": Nutriment,
          fat_100g: Nutriment,
          "saturated-fat_100g": Nutriment,
          carbohydrates_100g: Nutriment,
          sugars_100g: Nutriment,
          fiber_100g: Nutriment,
          proteins_100g: Nutriment,
          salt_100g: Nutriment,
        }),
      ),
    }),
  ),
});

const Grade = v.pipe(v.nullable(v.string()), v.description("a (best) to e; null when not computed"));
const Amount = v.nullable(v.number());

export default defineEndpoint({
  name: "food",
  method: "GET",
  price: "$0.005",
  summary:
    "A packaged food by barcode: name, brand, nutrition per 100 g, Nutri-Score, NOVA group, allergens, ingredients",
  description:
    "From Open Food Facts (ODbL; contributed data, may be incomplete). Cached 24 hours. An unknown barcode is a 404. " +
    "Nutrition values are grams per 100 g (energy in kcal); null when the product page does not give them.",
  input: v.object({
    barcode: v.pipe(
      v.string(),
      v.regex(/^\d{8,14}$/, "not an EAN/UPC barcode (8 to 14 digits)"),
      v.description("EAN-13, EAN-8, UPC-A or GTIN-14 digits"),
    ),
  }),
  output: v.object({
    id: v.pipe(v.string(), v.description("The barcode")),
    name: v.nullable(v.string()),
    brands: v.array(v.string()),
    quantity: v.nullable(v.string()),
    categories: v.array(v.string()),
    nutriScore: Grade,
    novaGroup: v.pipe(v.nullable(v.number()), v.description("1 (unprocessed) to 4 (ultra-processed)")),
    ecoScore: Grade,
    allergens: v.pipe(
      v.array(v.string()),
      v.description("Open Food Facts tags without the language prefix, e.g. milk, nuts"),
    ),
    ingredientsText: v.nullable(v.string()),
    nutrimentsPer100g: v.object({
      energyKcal: Amount,
      fat: Amount,
      saturatedFat: Amount,
      carbohydrates: Amount,
      sugars: Amount,
      fiber: Amount,
      proteins: Amount,
      salt: Amount,
    }),
    imageUrl: v.nullable(v.string()),
    url: v.pipe(v.string(), v.description("The product's Open Food Facts page")),
  }),
  example: {
    input: { barcode: "3017624010701" },
    output: {
      id: "3017624010701",
      name: "Nutella",
      brands: ["Ferrero"],
      quantity: "400 g",
      categories: ["Spreads", "Sweet spreads", "Cocoa and hazelnuts spreads"],
      nutriScore: "e",
      novaGroup: 4,
      ecoScore: "d",
      allergens: ["milk", "nuts", "soybeans"],
      ingredientsText:
        "Sucre, huile de palme, NOISETTES 13%, cacao maigre 7,4%, LAIT écrémé en poudre 6,6%, LACTOSERUM en poudre, émulsifiants: lécithines [SOJA], vanilline.",
      nutrimentsPer100g: {
        energyKcal: 539,
        fat: 30.9,
        saturatedFat: 10.6,
        carbohydrates: 57.5,
        sugars: 56.3,
        fiber: null,
        proteins: 6.3,
        salt: 0.107,
      },
      imageUrl: "https://images.openfoodfacts.org/images/products/301/762/401/0701/front_fr.331.400.jpg",
      url: "https://world.openfoodfacts.org/product/3017624010701",
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["openfoodfacts"],
  async handler({ input, upstream }) {
    const answer = await upstream("openfoodfacts").json(`/api/v2/product/${input.barcode}.json`, OffAnswer, {
      query: { fields },
      notFoundAs404: true,
    });
    if (answer.status !== 1 || !answer.product) throw notFound(`Open Food Facts has no product ${input.barcode}`);
    const p = answer.product;
    const list = (text?: string) =>
      (text ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    const amount = (key: (typeof per100g)[keyof typeof per100g]) => {
      const value = p.nutriments?.[key];
      return value === undefined || value === "" || Number.isNaN(Number(value)) ? null : Number(value);
    };
    const grade = (g?: string) => (g && /^[a-e]$/.test(g) ? g : null);
    return {
      id: input.barcode,
      name: p.product_name?.trim() || null,
      brands: list(p.brands),
      quantity: p.quantity?.trim() || null,
      categories: list(p.categories),
      nutriScore: grade(p.nutriscore_grade),
      novaGroup: p.nova_group ?? null,
      ecoScore: grade(p.ecoscore_grade),
      allergens: (p.allergens_tags ?? []).map((tag) => tag.replace(/^[a-z]{2}:/, "")),
      ingredientsText: p.ingredients_text?.trim() || null,
      nutrimentsPer100g: Object.fromEntries(
        Object.entries(per100g).map(([ours, theirs]) => [ours, amount(theirs)]),
      ) as Record<keyof typeof per100g, number | null>,
      imageUrl: p.image_url ?? null,
      url: `https://world.openfoodfacts.org/product/${input.barcode}`,
    };
  },
});
