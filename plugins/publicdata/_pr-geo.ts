const earthRadiusKm = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine, mean Earth radius). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Lower-case, accents removed: "São Paulo" and "sao paulo" compare equal. */
export const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();

/** The `limit` nearest of `items` to a point, within `radiusKm`, each with its distance (rounded to 0.1 km). */
export function nearest<T>(
  items: readonly T[],
  at: { lat: number; lon: number },
  where: (item: T) => [number, number],
  radiusKm: number,
  limit: number,
) {
  const found: { item: T; distanceKm: number }[] = [];
  for (const item of items) {
    const [lat, lon] = where(item);
    const d = distanceKm(at.lat, at.lon, lat, lon);
    if (d <= radiusKm) found.push({ item, distanceKm: Math.round(d * 10) / 10 });
  }
  return found.sort((a, b) => a.distanceKm - b.distanceKm).slice(0, limit);
}
