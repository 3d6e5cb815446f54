/**
 * Weather import from CSV text (README.md, "Weather CSV"): daily weather for the water balance
 * (water-balance.ts) and hourly weather for the disease risk (disease-risk.ts). Pure, no Node
 * APIs: it runs in the browser.
 *
 * - Daily: `date, tmax, tmin, rh_max, rh_min` (or `rh_mean`), `wind` (m/s at 2 m), `sunshine` (h)
 *   or `radiation` (MJ/m²/day), `rain` (mm); or `date, et0, rain`.
 * - Hourly: `time, temperature, rh, leaf_wetness` (optional, 0/1), `rain` (optional, mm).
 * - Spanish headers too (fecha, hr_max, hr_min, hr_media, viento, insolación, radiación, lluvia,
 *   precipitación, hora, fecha_hora, temperatura, hr, humedad, mojadura, humectación), any case,
 *   accents optional, a unit in brackets ignored (`tmax (°C)`), a byte order mark stripped.
 * - The separator comes from the header line: `;` when it has one, else a tab, else `,`. With `;`
 *   or a tab a comma in a number is the decimal comma (`25,3`, as Spanish spreadsheets export);
 *   with `,` the decimal is a point. Dates `YYYY-MM-DD` or `DD/MM/YYYY`; times add ` HH:mm` (or
 *   `THH:mm`). Empty lines are ignored.
 * - Every row error is collected (up to WEATHER_CSV_MAX_ERRORS), with the file's line number (the
 *   header is row 1) and the column; `weatherCsvErrorText` words it in Spanish or English.
 *
 * The splitting of the lines (quoted fields and all) is papaparse's.
 */
import Papa from 'papaparse';
import { isoDate, isoDay, HOUR_MS, localTimeMs, localTimeText } from './dates';
import type { HourInput } from './disease-risk';
import type { BalanceDayInput, DailyWeather } from './water-balance';

export { SAMPLE_DAILY_CSV, SAMPLE_DAILY_SITE, SAMPLE_HOURLY_CSV } from './weather-csv-samples';

export type WeatherCsvKind = 'daily' | 'hourly';

export type WeatherCsvErrorCode =
  'missing' | 'number' | 'range' | 'date' | 'order' | 'header' | 'empty';

/** The columns the import reads (the keys of BalanceDayInput, DailyWeather and HourInput). */
export type WeatherCsvField =
  | 'date'
  | 'time'
  | 'et0'
  | 'rain'
  | 'tmax'
  | 'tmin'
  | 'rhmax'
  | 'rhmin'
  | 'rhmean'
  | 'windSpeed'
  | 'sunshineHours'
  | 'solarRadiation'
  | 'temperature'
  | 'rh'
  | 'leafWet';

/**
 * A column of an error: a field, or for the header errors `et0OrTemperatures` (a daily file needs
 * et0, or tmax and tmin), `dateOrTime` (no date nor time column) or '' (an empty file).
 */
export type WeatherCsvColumn = WeatherCsvField | 'et0OrTemperatures' | 'dateOrTime' | '';

export interface WeatherCsvError {
  /** Line of the file, 1-based; the header is row 1. */
  row: number;
  column: WeatherCsvColumn;
  code: WeatherCsvErrorCode;
  /** The cell as written (the header as written for a repeated column). */
  value?: string;
  min?: number;
  max?: number;
  unit?: string;
  /** 'order': the date or time that was expected. */
  expected?: string;
}

export type WeatherCsvResult =
  | { ok: true; kind: 'daily'; days: BalanceDayInput[] }
  | { ok: true; kind: 'hourly'; hours: HourInput[] }
  | { ok: false; errors: WeatherCsvError[] };

/** At most this many errors are collected. */
export const WEATHER_CSV_MAX_ERRORS = 20;

/** Header aliases, normalised (lower case, no accents, `_` for blanks). */
const ALIASES: Record<WeatherCsvField, readonly string[]> = {
  date: ['date', 'fecha', 'dia'],
  time: ['time', 'datetime', 'date_time', 'timestamp', 'hora', 'fecha_hora', 'fechahora'],
  et0: ['et0', 'eto', 'et_0'],
  rain: ['rain', 'precipitation', 'lluvia', 'precipitacion', 'pp'],
  tmax: ['tmax', 't_max', 'temp_max'],
  tmin: ['tmin', 't_min', 'temp_min'],
  rhmax: ['rh_max', 'rhmax', 'hr_max', 'hrmax'],
  rhmin: ['rh_min', 'rhmin', 'hr_min', 'hrmin'],
  rhmean: ['rh_mean', 'rhmean', 'hr_media', 'hr_med', 'hrmed'],
  windSpeed: ['wind', 'wind_speed', 'windspeed', 'u2', 'viento', 'velocidad_viento'],
  sunshineHours: ['sunshine', 'sunshine_hours', 'insolacion', 'horas_sol', 'horas_de_sol'],
  solarRadiation: ['radiation', 'solar_radiation', 'rs', 'radiacion', 'radiacion_solar'],
  temperature: ['temperature', 'temp', 't', 'temperatura'],
  rh: ['rh', 'hr', 'humidity', 'humedad', 'humedad_relativa'],
  leafWet: ['leaf_wetness', 'leafwet', 'leaf_wet', 'wetness', 'mojadura', 'humectacion'],
};

const FIELD_BY_ALIAS = new Map<string, WeatherCsvField>(
  (Object.entries(ALIASES) as [WeatherCsvField, readonly string[]][]).flatMap(([field, names]) =>
    names.map((name) => [name, field] as const),
  ),
);

/** Ranges of the number columns: [min, max, unit]. */
const RANGES: Record<Exclude<WeatherCsvField, 'date' | 'time'>, [number, number, string]> = {
  et0: [0, 25, 'mm/d'],
  rain: [0, 500, 'mm'],
  tmax: [-50, 60, '°C'],
  tmin: [-50, 60, '°C'],
  rhmax: [0, 100, '%'],
  rhmin: [0, 100, '%'],
  rhmean: [0, 100, '%'],
  windSpeed: [0, 60, 'm/s'],
  sunshineHours: [0, 24, 'h'],
  solarRadiation: [0, 50, 'MJ/m²/d'],
  temperature: [-40, 60, '°C'],
  rh: [0, 100, '%'],
  leafWet: [0, 1, ''],
};
/** An hour's rain (disease-risk.ts). */
const HOURLY_MAX_RAIN = 200;

const WEATHER_FIELDS = [
  'tmax',
  'tmin',
  'rhmax',
  'rhmin',
  'rhmean',
  'windSpeed',
  'sunshineHours',
  'solarRadiation',
] as const satisfies readonly (keyof DailyWeather)[];

function normaliseHeader(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s*[([].*[)\]]\s*$/, '')
    .trim()
    .replace(/[\s-]+/g, '_');
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A number of a cell; with `decimalComma` a comma is the decimal separator. */
function parseNumber(raw: string, decimalComma: boolean): number | null {
  let text = raw;
  if (decimalComma && text.includes(',')) {
    if (text.includes('.')) return null;
    text = text.replace(',', '.');
  }
  return NUMBER.test(text) ? Number(text) : null;
}

const ISO_DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const DMY_DATE_TIME = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** Date and time parts of `YYYY-MM-DD[ HH:mm[:ss]]` or `DD/MM/YYYY[ HH:mm[:ss]]`. */
function dateParts(
  text: string,
): { date: string; time: string | null; seconds: string | undefined } | null {
  const iso = ISO_DATE_TIME.exec(text);
  const dmy = iso ? null : DMY_DATE_TIME.exec(text);
  if (!iso && !dmy) return null;
  const [y, mo, d] = iso ? [iso[1]!, iso[2]!, iso[3]!] : [dmy![3]!, dmy![2]!, dmy![1]!];
  const m = (iso ?? dmy)!;
  const pad = (s: string) => s.padStart(2, '0');
  const date = `${y}-${pad(mo)}-${pad(d)}`;
  return { date, time: m[4] === undefined ? null : `${pad(m[4])}:${m[5]}`, seconds: m[6] };
}

/** Day number (dates.ts isoDay) of a daily cell; a time of 00:00 is allowed. */
function parseDailyDate(text: string): number | null {
  const parts = dateParts(text);
  if (
    !parts ||
    (parts.time !== null && (parts.time !== '00:00' || (parts.seconds ?? '00') !== '00'))
  ) {
    return null;
  }
  return isoDay(parts.date);
}

/** Milliseconds (dates.ts localTimeMs) of an hourly cell, with the date column's cell when the time is only `HH:mm`. */
function parseHourlyTime(text: string, dateCell: string | undefined): number | null {
  let full = text;
  if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(text) && dateCell) full = `${dateCell} ${text}`;
  const parts = dateParts(full);
  if (!parts || parts.time === null || (parts.seconds ?? '00') !== '00') return null;
  return localTimeMs(`${parts.date}T${parts.time}`);
}

interface Reader {
  row: number;
  cells: Partial<Record<WeatherCsvField, string>>;
}

/**
 * Reads weather CSV text.
 * @param expected the kind the caller needs; when left out, a `time` column makes it hourly and a
 *   `date` column daily.
 */
export function parseWeatherCsv(text: string, expected?: WeatherCsvKind): WeatherCsvResult {
  const content = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const headerLine = content.split('\n').find((line) => line.trim() !== '');
  if (headerLine === undefined)
    return { ok: false, errors: [{ row: 1, column: '', code: 'empty' }] };
  const delimiter = headerLine.includes(';') ? ';' : headerLine.includes('\t') ? '\t' : ',';
  const decimalComma = delimiter !== ',';

  const rows: { line: number; cells: string[] }[] = [];
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(content, {
    delimiter,
    step: (result) => {
      const cells = result.data.map((cell) => cell.trim());
      if (cells.some((cell) => cell !== '')) rows.push({ line, cells });
      const end = result.meta.cursor;
      for (let i = start; i < end; i++) if (content.charCodeAt(i) === 10) line++;
      start = end;
    },
  });

  const errors: WeatherCsvError[] = [];
  const add = (error: WeatherCsvError) => {
    if (errors.length < WEATHER_CSV_MAX_ERRORS) errors.push(error);
  };

  // The header.
  const header = rows.shift()!;
  const columns = new Map<WeatherCsvField, number>();
  header.cells.forEach((name, index) => {
    const field = FIELD_BY_ALIAS.get(normaliseHeader(name));
    if (field === undefined) return;
    if (columns.has(field)) add({ row: header.line, column: field, code: 'header', value: name });
    else columns.set(field, index);
  });
  const kind: WeatherCsvKind | null =
    expected ?? (columns.has('time') ? 'hourly' : columns.has('date') ? 'daily' : null);
  if (kind === null) add({ row: header.line, column: 'dateOrTime', code: 'header' });
  const required: WeatherCsvColumn[] =
    kind === 'hourly' ? ['time', 'temperature', 'rh'] : kind === 'daily' ? ['date'] : [];
  for (const field of required) {
    if (!columns.has(field as WeatherCsvField))
      add({ row: header.line, column: field, code: 'header' });
  }
  if (kind === 'daily') {
    // Mean RH of a daily file may be headed like the hourly humidity (rh, hr, humedad).
    if (!columns.has('rhmean') && columns.has('rh')) columns.set('rhmean', columns.get('rh')!);
    const temperatures = columns.has('tmax') || columns.has('tmin');
    if (!columns.has('et0') && !temperatures) {
      add({ row: header.line, column: 'et0OrTemperatures', code: 'header' });
    } else if (temperatures) {
      for (const field of ['tmax', 'tmin'] as const) {
        if (!columns.has(field)) add({ row: header.line, column: field, code: 'header' });
      }
    }
  }
  if (errors.length > 0 || kind === null) return { ok: false, errors };
  if (rows.length === 0)
    return { ok: false, errors: [{ row: header.line + 1, column: '', code: 'empty' }] };

  const readers: Reader[] = rows.map(({ line: row, cells }) => ({
    row,
    cells: Object.fromEntries(
      [...columns].map(([field, index]) => [field, cells[index] ?? '']),
    ) as Reader['cells'],
  }));

  /** The number of a cell, or undefined (blank, or an error added). */
  const number = (
    reader: Reader,
    field: Exclude<WeatherCsvField, 'date' | 'time'>,
    needed: boolean,
    max = RANGES[field][1],
  ): number | undefined => {
    const raw = reader.cells[field];
    if (raw === undefined || raw === '') {
      if (needed) add({ row: reader.row, column: field, code: 'missing' });
      return undefined;
    }
    const value = parseNumber(raw, decimalComma);
    if (value === null) {
      add({ row: reader.row, column: field, code: 'number', value: raw });
      return undefined;
    }
    const [min, , unit] = RANGES[field];
    if (value < min || value > max) {
      add({ row: reader.row, column: field, code: 'range', value: raw, min, max, unit });
      return undefined;
    }
    return value;
  };

  if (kind === 'daily') {
    const days: BalanceDayInput[] = [];
    let previous: number | null = null;
    const weatherColumns = WEATHER_FIELDS.filter((field) => columns.has(field));
    for (const reader of readers) {
      const raw = reader.cells.date ?? '';
      const day = raw === '' ? null : parseDailyDate(raw);
      if (raw === '') add({ row: reader.row, column: 'date', code: 'missing' });
      else if (day === null) add({ row: reader.row, column: 'date', code: 'date', value: raw });
      else if (previous !== null && day !== previous + 1) {
        add({
          row: reader.row,
          column: 'date',
          code: 'order',
          value: raw,
          expected: isoDate(previous + 1),
        });
      }
      previous = day;
      const et0Raw = reader.cells.et0;
      const et0 = number(reader, 'et0', weatherColumns.length === 0);
      const out: BalanceDayInput = { date: day === null ? raw : isoDate(day) };
      if (et0 !== undefined) out.et0 = et0;
      if (weatherColumns.length > 0) {
        const needed = et0Raw === undefined || et0Raw === '';
        const weather: Partial<DailyWeather> = {};
        for (const field of weatherColumns) {
          const value = number(reader, field, needed && (field === 'tmax' || field === 'tmin'));
          if (value !== undefined) weather[field] = value;
        }
        if (weather.tmax !== undefined && weather.tmin !== undefined) {
          out.weather = weather as DailyWeather;
        }
      }
      const rain = number(reader, 'rain', false);
      if (rain !== undefined) out.rain = rain;
      days.push(out);
    }
    return errors.length > 0 ? { ok: false, errors } : { ok: true, kind, days };
  }

  const hours: HourInput[] = [];
  let previous: number | null = null;
  for (const reader of readers) {
    const raw = reader.cells.time ?? '';
    const ms = raw === '' ? null : parseHourlyTime(raw, reader.cells.date);
    if (raw === '') add({ row: reader.row, column: 'time', code: 'missing' });
    else if (ms === null) add({ row: reader.row, column: 'time', code: 'date', value: raw });
    else if (previous !== null && ms !== previous + HOUR_MS) {
      add({
        row: reader.row,
        column: 'time',
        code: 'order',
        value: raw,
        expected: localTimeText(previous + HOUR_MS),
      });
    }
    previous = ms;
    const temperature = number(reader, 'temperature', true);
    const rh = number(reader, 'rh', true);
    const hour: HourInput = {
      time: ms === null ? raw : localTimeText(ms),
      temperature: temperature ?? NaN,
      rh: rh ?? NaN,
    };
    const wet = reader.cells.leafWet;
    if (wet !== undefined && /^(true|false)$/i.test(wet)) hour.leafWet = /^true$/i.test(wet);
    else {
      const leafWet = number(reader, 'leafWet', false);
      if (leafWet !== undefined) {
        if (leafWet === 0 || leafWet === 1) hour.leafWet = leafWet;
        else
          add({
            row: reader.row,
            column: 'leafWet',
            code: 'range',
            value: wet,
            min: 0,
            max: 1,
            unit: '',
          });
      }
    }
    const rain = number(reader, 'rain', false, HOURLY_MAX_RAIN);
    if (rain !== undefined) hour.rain = rain;
    hours.push(hour);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, kind, hours };
}

const COLUMN_NAMES: Record<Exclude<WeatherCsvColumn, ''>, { es: string; en: string }> = {
  date: { es: 'fecha', en: 'date' },
  time: { es: 'fecha y hora', en: 'time' },
  et0: { es: 'ET0', en: 'ET0' },
  rain: { es: 'lluvia', en: 'rain' },
  tmax: { es: 'temperatura máxima', en: 'maximum temperature' },
  tmin: { es: 'temperatura mínima', en: 'minimum temperature' },
  rhmax: { es: 'humedad máxima', en: 'maximum humidity' },
  rhmin: { es: 'humedad mínima', en: 'minimum humidity' },
  rhmean: { es: 'humedad media', en: 'mean humidity' },
  windSpeed: { es: 'viento', en: 'wind' },
  sunshineHours: { es: 'insolación', en: 'sunshine' },
  solarRadiation: { es: 'radiación', en: 'radiation' },
  temperature: { es: 'temperatura', en: 'temperature' },
  rh: { es: 'humedad', en: 'humidity' },
  leafWet: { es: 'mojadura de la hoja', en: 'leaf wetness' },
  et0OrTemperatures: { es: 'ET0 (o tmax y tmin)', en: 'ET0 (or tmax and tmin)' },
  dateOrTime: { es: 'fecha (o fecha_hora)', en: 'date (or time)' },
};

/** One error as a sentence in Spanish or English: `fila 12: humedad 150 % fuera de 0-100`. */
export function weatherCsvErrorText(error: WeatherCsvError, lang: 'es' | 'en'): string {
  const es = lang === 'es';
  const row = `${es ? 'fila' : 'row'} ${error.row}: `;
  const name = error.column === '' ? '' : COLUMN_NAMES[error.column][lang];
  const value = error.value ?? '';
  const quoted = es ? `«${value}»` : `'${value}'`;
  switch (error.code) {
    case 'empty':
      if (error.row <= 1) return `${row}${es ? 'el archivo está vacío' : 'the file is empty'}`;
      return `${row}${es ? 'no hay datos debajo del encabezado' : 'no data below the header'}`;
    case 'header':
      if (error.value !== undefined) {
        return `${row}${es ? `la columna ${quoted} repite ${name}` : `column ${quoted} repeats ${name}`}`;
      }
      return `${row}${es ? `falta la columna ${name}` : `no ${name} column`}`;
    case 'missing':
      return `${row}${es ? `falta ${name}` : `${name} missing`}`;
    case 'number':
      return `${row}${name} ${quoted} ${es ? 'no es un número' : 'is not a number'}`;
    case 'range': {
      const unit = error.unit ? ` ${error.unit}` : '';
      const { min = 0, max = 0 } = error;
      const range = min < 0 ? `${min} ${es ? 'a' : 'to'} ${max}` : `${min}-${max}`;
      return `${row}${name} ${value}${unit} ${es ? 'fuera de' : 'outside'} ${range}`;
    }
    case 'date': {
      const hourly = error.column === 'time';
      if (es) {
        const format = hourly ? 'AAAA-MM-DD HH:mm o DD/MM/AAAA HH:mm' : 'AAAA-MM-DD o DD/MM/AAAA';
        return `${row}${name} ${quoted} no es una ${hourly ? 'fecha y hora' : 'fecha'} válida (${format})`;
      }
      const format = hourly ? 'YYYY-MM-DD HH:mm or DD/MM/YYYY HH:mm' : 'YYYY-MM-DD or DD/MM/YYYY';
      return `${row}${name} ${quoted} is not a valid ${hourly ? 'time' : 'date'} (${format})`;
    }
    case 'order':
      return es
        ? `${row}${name} ${value} fuera de orden: se esperaba ${error.expected ?? ''}`
        : `${row}${name} ${value} out of order: expected ${error.expected ?? ''}`;
  }
}
