/**
 * The specification's messages of the secondary and main-line designers in Spanish, for the
 * Spanish pages (the English pages keep the specification's words: messages.ts). The engines keep
 * producing the specification's text; `localizeToolMessage` turns a produced message into its
 * Spanish twin, numbers and field names as they were, so every place that shows or exports a
 * message (status lines, alerts, CSV and PDF) says it in the page's language through one function.
 */
import {
  MAINLINE_MESSAGES,
  type MessageLanguage,
  SECONDARY_MESSAGES,
  STATUS_HERE,
} from './messages';

/** A message's Spanish twin: the same key; a function takes the English one's shown values. */
type SpanishTwin<T> = {
  readonly [K in keyof T]: T[K] extends (...args: never[]) => string
    ? (...args: string[]) => string
    : string;
};

export const STATUS_HERE_ES = 'Estado: sin calcular';

/** The secondary form's field names the messages quote (SECONDARY_FIELD_LABELS), in Spanish. */
const FIELD_ES: Readonly<Record<string, string>> = {
  'Pipe type': 'Tipo de tubería',
  Length: 'Longitud',
  'Friction formula': 'Fórmula de fricción',
  'Lateral pressure': 'Presión de la lateral',
};
const fieldEs = (field: string) => FIELD_ES[field] ?? field;

export const SECONDARY_MESSAGES_ES = {
  selectValue: (field, section) =>
    `Selecciona un valor válido en el selector ${fieldEs(field)} de la sección ${section}`,
  empty: (field, section) =>
    `Escribe un valor numérico. Revisa el dato ${fieldEs(field)} de la sección ${section}`,
  ndInteger: 'Escribe solo un número entero (se admite de 1 a 5)…',
  noNegative: '¡No se admiten valores negativos!…',
  floatPositive: 'Número decimal (se admite mayor que 0)…',
  maxSections: 'Solo se permiten 20 secciones: reinicia el proceso.',
  sectionCount: 'Debe haber al menos una sección y menos de 21.',
  noDiameter: (section) =>
    `Ningún diámetro de este catálogo cubre tu necesidad hidráulica. Revisa la sección ${section}.`,
  oneDiameter: (section) =>
    `Revisa tus datos: puedes diseñar con un solo diámetro, porque el último disponible cubre tu necesidad hidráulica. Revisa la sección ${section}.`,
  lossHigh: (section) => `Sección ${section}: revisa tus datos, la pérdida de presión es muy alta.`,
  danger: (section, hf, hfp) =>
    `Sección ${section}: revisa tus datos, la pérdida de presión supera a HFp. HF:${hf} > HFp:${hfp}`,
  ok: (hf, hfp) => `¡Esta sección está bien! HF:${hf} < HFp:${hfp}`,
  s0BeyondLength: (section) =>
    `Sección ${section}: S0 no puede ser mayor que la longitud de la tubería`,
  tooManyOutlets: (section, max) =>
    `Sección ${section}: demasiadas salidas (más de ${max}); revisa la longitud de la tubería, S0 y Se`,
} satisfies SpanishTwin<typeof SECONDARY_MESSAGES>;

export const MAINLINE_MESSAGES_ES = {
  selectPipeType: (section) => `Selecciona el tipo de tubería en la sección ${section}`,
  selectNominalDiameter: (section) => `Selecciona el diámetro nominal en la sección ${section}`,
  threeDecimals: 'Escribe solo caracteres numéricos, un número decimal con hasta tres decimales…',
  slope: 'Escribe la pendiente en unidades decimales: debe cumplir -1.0 < pendiente < 1.0…',
  initialPressure: 'Escribe una presión inicial en unidades decimales: debe ser mayor que 0 metros',
  unavailable: (section) =>
    `Sección ${section}: elige otro diámetro nominal, porque no está disponible en el catálogo actual.`,
  velocity: 'Revisa tus datos: la velocidad en la tubería es peligrosa.',
  hfNegative: '¡La pérdida hf es negativa!',
  ok: '¡Esta sección está bien!',
  sectionsWithErrors: (count) =>
    count === '1'
      ? 'Hay 1 sección con errores: revísala, por favor.'
      : `Hay ${count} secciones con errores: revísalas, por favor.`,
} satisfies SpanishTwin<typeof MAINLINE_MESSAGES>;

type Fn = (...args: never[]) => string;
interface Pattern {
  re: RegExp;
  /** The English function's argument each captured value is (in the order they appear). */
  order: number[];
  es: string | ((...args: string[]) => string);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern per message: each English function is called with markers for its arguments (and a
 * number formatter that keeps them), so its text shows where every value goes.
 */
function patternsOf(
  en: Record<string, string | Fn>,
  es: Record<string, string | ((...args: string[]) => string)>,
): Pattern[] {
  return Object.keys(en).map((key) => {
    const message = en[key]!;
    const twin = es[key]!;
    if (typeof message === 'string')
      return { re: new RegExp(`^${escape(message)}$`), order: [], es: twin };
    // its declared arguments (a trailing number formatter has a default, so is not counted)
    const markers = Array.from({ length: message.length }, (_, i) => `⟦${i}⟧`);
    const keep = (v: unknown) => String(v);
    const text = (message as (...args: unknown[]) => string)(...markers, keep);
    const order: number[] = [];
    const source = escape(text).replace(/⟦(\d)⟧/g, (_, i: string) => {
      order.push(Number(i));
      return '(.+?)';
    });
    return { re: new RegExp(`^${source}$`), order, es: twin };
  });
}

let patterns: Pattern[] | null = null;

/**
 * A secondary or main-line message in the page's language: the English pages keep the
 * specification's words; on the Spanish ones its Spanish twin, with the same numbers. Any other
 * text (already in the page's language) is returned as it is.
 */
export function localizeToolMessage(text: string, lang: MessageLanguage): string {
  if (lang === 'en') return text;
  if (text === STATUS_HERE) return STATUS_HERE_ES;
  patterns ??= [
    ...patternsOf(SECONDARY_MESSAGES, SECONDARY_MESSAGES_ES),
    ...patternsOf(MAINLINE_MESSAGES, MAINLINE_MESSAGES_ES),
  ];
  for (const p of patterns) {
    const m = p.re.exec(text);
    if (!m) continue;
    if (typeof p.es === 'string') return p.es;
    const args: string[] = [];
    p.order.forEach((arg, i) => (args[arg] = m[i + 1]!));
    return p.es(...args);
  }
  return text;
}
