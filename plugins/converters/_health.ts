/** Population formulas behind health-calc; every input is metric (kg, cm, years). */

export type Sex = "male" | "female";
export const activityFactors = {
  sedentary: 1.2,
  light: 1.375,
  moderate: 1.55,
  active: 1.725,
  very_active: 1.9,
} as const;
export type Activity = keyof typeof activityFactors;

export const KG_PER_LB = 0.45359237;
export const CM_PER_IN = 2.54;

export const bmiOf = (kg: number, cm: number) => kg / (cm / 100) ** 2;

/** WHO adult classes. */
export function bmiCategory(bmi: number): string {
  if (bmi < 18.5) return "underweight";
  if (bmi < 25) return "normal";
  if (bmi < 30) return "overweight";
  if (bmi < 35) return "obese class I";
  if (bmi < 40) return "obese class II";
  return "obese class III";
}

/** Weight range for a BMI of 18.5 to 24.9 at this height. */
export const healthyWeightKg = (cm: number) => ({ min: 18.5 * (cm / 100) ** 2, max: 24.9 * (cm / 100) ** 2 });

export const mifflinStJeor = (kg: number, cm: number, age: number, sex: Sex) =>
  10 * kg + 6.25 * cm - 5 * age + (sex === "male" ? 5 : -161);

/** Harris-Benedict as revised by Roza and Shizgal (1984). */
export const harrisBenedict = (kg: number, cm: number, age: number, sex: Sex) =>
  sex === "male" ? 88.362 + 13.397 * kg + 4.799 * cm - 5.677 * age : 447.593 + 9.247 * kg + 3.098 * cm - 4.33 * age;

/** US Navy circumference method (Hodgdon and Beckett), in centimetres. */
export function navyBodyFat(sex: Sex, cm: number, waist: number, neck: number, hip: number | undefined): number {
  return sex === "male"
    ? 495 / (1.0324 - 0.19077 * Math.log10(waist - neck) + 0.15456 * Math.log10(cm)) - 450
    : 495 / (1.29579 - 0.35004 * Math.log10(waist + hip! - neck) + 0.221 * Math.log10(cm)) - 450;
}

/** American Council on Exercise bands. */
export function bodyFatCategory(sex: Sex, percent: number): string {
  const bands = sex === "male" ? [2, 6, 14, 18, 25] : [10, 14, 21, 25, 32];
  const names = ["below essential fat", "essential fat", "athletes", "fitness", "average", "obese"];
  return names[bands.filter((b) => percent >= b).length];
}

/** Devine, Robinson, Miller and Hamwi: a base weight at 5 ft plus a step per inch above it. */
export function idealWeightsKg(cm: number, sex: Sex) {
  const inchesOver5ft = cm / CM_PER_IN - 60;
  const male = sex === "male";
  return {
    devine: (male ? 50 : 45.5) + 2.3 * inchesOver5ft,
    robinson: (male ? 52 : 49) + (male ? 1.9 : 1.7) * inchesOver5ft,
    miller: (male ? 56.2 : 53.1) + (male ? 1.41 : 1.36) * inchesOver5ft,
    hamwi: (male ? 48 : 45.5) + (male ? 2.7 : 2.2) * inchesOver5ft,
  };
}
