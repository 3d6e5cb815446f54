/**
 * User-facing messages of the irrigation tools, word for word from the specification (§4, §5,
 * §8). Where the specification shows '...' between words, the section number or field is filled
 * in; a trailing '...' is part of the text and kept. Messages marked "beyond the specification"
 * cover cases the specification does not address.
 */
import { formatMessageNumber } from './numbers';

/** Formats a number for a message with at most `digits` decimals (3 when not given). */
export type NumberFormatter = (value: number, digits?: number) => string;

/**
 * The two sides of 'HF:x < HFp:y' with three decimals, or with as many more (up to 9) as it takes
 * for two different numbers not to print alike ('HF:2.342 < HFp:2.342' becomes 'HF:2.3415 <
 * HFp:2.342').
 */
function comparedPair(a: number, b: number, format: NumberFormatter): [string, string] {
  let digits = 3;
  while (a !== b && digits < 9 && format(a, digits) === format(b, digits)) digits += 1;
  return [format(a, digits), format(b, digits)];
}

/** Initial text of every section status (specification §4). */
export const STATUS_HERE = 'Status Here';

export const SECONDARY_MESSAGES = {
  /** Pipe type not chosen. */
  selectValue: (field: string, section: number) =>
    `Please select valid value in selector ${field} of section or form ${section}`,
  /** An input left empty. */
  empty: (field: string, section: number) =>
    `Please enter something, Numeric characters. Check input: ${field} in this section or form: ${section}`,
  /** ND not an integer 1-5. */
  ndInteger: 'Please only enter numeric characters, integer type (Allowed input:1-5)...',
  /** A negative value in one of the five numeric inputs. */
  noNegative: 'No negative values!...',
  /** Not a number, or zero, in one of the five numeric inputs. */
  floatPositive: 'Float type (Allowed input:more than 0)...',
  /** Adding a 21st section. */
  maxSections: 'Only 20 sections are allowed, restart process!!',
  /** Pipe accounting with 0 or more than 20 sections. */
  sectionCount: 'There must be at least one section or less than 21 sections!',
  noDiameter: (section: number) =>
    `There is no diameter that meets your hydraulic need in this catalog.!!! Check section:${section}`,
  oneDiameter: (section: number) =>
    `Verify your data, you can use one diameter to design, it is because the last diameter available satisfy your hydraulic necessity!!! Check section:${section}`,
  lossHigh: (section: number) =>
    `Section ${section} Verify yours data input, loss pressure is hight!`,
  danger: (
    section: number,
    hf: number,
    hfp: number,
    format: NumberFormatter = formatMessageNumber,
  ) => {
    const [x, y] = comparedPair(hf, hfp, format);
    return `Section ${section} Verify yours data input, loss pressure is bigger than HFp! HF:${x} > HFp:${y}`;
  },
  ok: (hf: number, hfp: number, format: NumberFormatter = formatMessageNumber) => {
    const [x, y] = comparedPair(hf, hfp, format);
    return `This section it's OK! HF:${x} < HFp:${y}`;
  },
  /** Beyond the specification: S0 longer than the pipe leaves no outlet. */
  s0BeyondLength: (section: number) =>
    `Section ${section}: S0 must not be greater than the pipe length`,
  /** Beyond the specification: guard against absurd outlet counts. */
  tooManyOutlets: (section: number, max: number) =>
    `Section ${section}: too many outlets (more than ${max}); check the pipe length, S0 and Se`,
} as const;

export const MAINLINE_MESSAGES = {
  selectPipeType: (section: number) => `Please select type pipe in this section ${section}`,
  /** Beyond the specification's wording (the rule is in §5, the text is not): modelled on the pipe type message. */
  selectNominalDiameter: (section: number) =>
    `Please select nominal diameter in this section ${section}`,
  threeDecimals: 'Please only enter numeric characters, float type with three decimals...',
  slope: "Please only enter slope in decimal unit, it's should be -1.0 < slope < 1.0...",
  initialPressure: "Please enter some initial pressure in decimal unit, it's should be > 0 meters",
  unavailable: (section: number) =>
    `Section ${section} Select another nominal diameter, because it is not available in the current catalog!`,
  velocity: 'Verify yours data input, the velocity in pipe is dangerous!',
  hfNegative: 'the hf is negative!',
  ok: "This section it's OK!",
  sectionsWithErrors: (count: number) =>
    `There are ${count} sections with errors, check this please.`,
} as const;

/** Languages of the messages beyond the specification (README.md, "Engineering checks"). */
export type MessageLanguage = 'es' | 'en';
/** Formats a number with a fixed number of decimals (screens pass their locale's). */
export type FixedNumberFormatter = (value: number, digits: number) => string;
const fixedDigits: FixedNumberFormatter = (value, digits) => value.toFixed(digits);

/**
 * Beyond the specification (README.md, "Engineering checks"): the engineer's checks of a lateral and the friction
 * formula's range, in Spanish (the product's language) and English. Figures are in %.
 */
export const DESIGN_MESSAGES = {
  es: {
    flowVariationHigh: (variation: string) =>
      `La variación de caudal es de ${variation} %, mayor que el 10 % admisible.`,
    euLow: (eu: string) =>
      `La uniformidad de emisión (EU) es de ${eu} %, menor que el 90 % recomendado.`,
    ok: (variation: string, eu: string) =>
      `La lateral cumple: variación de caudal de ${variation} % (máximo 10 %) y uniformidad de emisión (EU) de ${eu} % (mínimo 90 %).`,
    blasiusRange:
      'Blasius se recomienda para tubo de plástico liso de menos de 125 mm; este diseño queda fuera de ese rango: compáralo con Hazen-Williams.',
    noDesign:
      'Ningún emisor cabe dentro de la pérdida admisible: fija una longitud o un número de emisores para evaluar una lateral.',
  },
  en: {
    flowVariationHigh: (variation: string) =>
      `The flow variation is ${variation} %, above the permissible 10 %.`,
    euLow: (eu: string) => `The emission uniformity (EU) is ${eu} %, below the recommended 90 %.`,
    ok: (variation: string, eu: string) =>
      `The lateral complies: flow variation ${variation} % (at most 10 %) and emission uniformity (EU) ${eu} % (at least 90 %).`,
    blasiusRange:
      'Blasius is recommended for smooth plastic pipe under 125 mm; this design is outside that range: compare it with Hazen-Williams.',
    noDesign:
      'Not one emitter fits within the permissible loss: fix a length or a number of emitters to evaluate a lateral.',
  },
} as const;

/**
 * The status of a lateral's uniformity: one sentence per check that fails (flow variation over
 * 10 %, EU under 90 %), each with its figure, or the sentence saying both are met.
 */
export function uniformityStatusText(
  figures: {
    flowVariation: number;
    eu: number;
    flowVariationOk: boolean;
    euOk: boolean;
  },
  lang: MessageLanguage = 'es',
  format: FixedNumberFormatter = fixedDigits,
): string {
  const text = DESIGN_MESSAGES[lang];
  const variation = format(100 * figures.flowVariation, 1);
  const eu = format(figures.eu, 1);
  if (figures.flowVariationOk && figures.euOk) return text.ok(variation, eu);
  return [
    figures.flowVariationOk ? '' : text.flowVariationHigh(variation),
    figures.euOk ? '' : text.euLow(eu),
  ]
    .filter(Boolean)
    .join(' ');
}
