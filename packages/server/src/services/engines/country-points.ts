/**
 * A point inside each country (its capital, to two decimals), for the vendors that place an asker
 * by coordinates rather than by country code (Gemini's `retrievalConfig.latLng`). A country missing
 * here cannot be placed on those engines: they refuse rather than guess. Data, not logic: add a row
 * to place one more.
 */
const POINTS: Readonly<Record<string, readonly [number, number]>> = {
  AE: [24.45, 54.38],
  AR: [-34.6, -58.38],
  AT: [48.21, 16.37],
  AU: [-35.28, 149.13],
  BE: [50.85, 4.35],
  BG: [42.7, 23.32],
  BR: [-15.79, -47.88],
  CA: [45.42, -75.7],
  CH: [46.95, 7.45],
  CL: [-33.45, -70.67],
  CN: [39.9, 116.4],
  CO: [4.71, -74.07],
  CZ: [50.08, 14.44],
  DE: [52.52, 13.4],
  DK: [55.68, 12.57],
  EG: [30.04, 31.24],
  ES: [40.42, -3.7],
  FI: [60.17, 24.94],
  FR: [48.86, 2.35],
  GB: [51.51, -0.13],
  GR: [37.98, 23.73],
  HK: [22.32, 114.17],
  HU: [47.5, 19.04],
  ID: [-6.21, 106.85],
  IE: [53.35, -6.26],
  IL: [31.77, 35.21],
  IN: [28.61, 77.21],
  IT: [41.9, 12.5],
  JP: [35.68, 139.69],
  KE: [-1.29, 36.82],
  KR: [37.57, 126.98],
  MX: [19.43, -99.13],
  MY: [3.14, 101.69],
  NG: [9.08, 7.4],
  NL: [52.37, 4.9],
  NO: [59.91, 10.75],
  NZ: [-41.29, 174.78],
  PE: [-12.05, -77.04],
  PH: [14.6, 120.98],
  PK: [33.68, 73.05],
  PL: [52.23, 21.01],
  PT: [38.72, -9.14],
  RO: [44.43, 26.1],
  SA: [24.71, 46.68],
  SE: [59.33, 18.07],
  SG: [1.35, 103.82],
  TH: [13.76, 100.5],
  TR: [39.93, 32.86],
  TW: [25.03, 121.57],
  UA: [50.45, 30.52],
  US: [38.9, -77.04],
  VN: [21.03, 105.85],
  ZA: [-25.75, 28.19],
};

/** A point in `country` (ISO 3166-1 alpha-2), or null when none is known. */
export function countryPoint(country: string): { latitude: number; longitude: number } | null {
  const point = Object.hasOwn(POINTS, country.toUpperCase()) ? POINTS[country.toUpperCase()] : undefined;
  return point === undefined ? null : { latitude: point[0], longitude: point[1] };
}
