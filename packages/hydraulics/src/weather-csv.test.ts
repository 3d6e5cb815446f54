import { describe, expect, it } from 'vitest';
import { diseaseRisk } from './disease-risk';
import { waterBalance } from './water-balance';
import {
  parseWeatherCsv,
  weatherCsvErrorText,
  SAMPLE_DAILY_CSV,
  SAMPLE_DAILY_SITE,
  SAMPLE_HOURLY_CSV,
  WEATHER_CSV_MAX_ERRORS,
  type WeatherCsvError,
  type WeatherCsvResult,
} from './weather-csv';

function errors(result: WeatherCsvResult): WeatherCsvError[] {
  if (result.ok) expect.fail('expected errors');
  return result.errors;
}

function texts(result: WeatherCsvResult, lang: 'es' | 'en' = 'en'): string[] {
  return errors(result).map((e) => weatherCsvErrorText(e, lang));
}

/** `n` hourly rows from 2026-06-01T00:00, `,`-separated. */
function hourlyRows(n: number, row = (h: number) => `20.5,${60 + h}`): string[] {
  return Array.from(
    { length: n },
    (_, h) => `2026-06-01T${String(h).padStart(2, '0')}:00,${row(h)}`,
  );
}

describe('parseWeatherCsv: daily', () => {
  it('reads `;`, decimal commas, Spanish headers and DD/MM/YYYY', () => {
    const csv = [
      '\uFEFF Fecha ; TMax (°C) ; Tmin ; HR_Media ; Viento ; Radiación ; Precipitación ',
      '01/04/2026;25,3;12,1;55;2,1;22,5;0',
      '',
      '2/4/2026;26;11,8;60,5;1,9;21;12,4',
    ].join('\r\n');
    const result = parseWeatherCsv(csv);
    expect(result).toEqual({
      ok: true,
      kind: 'daily',
      days: [
        {
          date: '2026-04-01',
          weather: { tmax: 25.3, tmin: 12.1, rhmean: 55, windSpeed: 2.1, solarRadiation: 22.5 },
          rain: 0,
        },
        {
          date: '2026-04-02',
          weather: { tmax: 26, tmin: 11.8, rhmean: 60.5, windSpeed: 1.9, solarRadiation: 21 },
          rain: 12.4,
        },
      ],
    });
  });

  it('reads `,` with decimal points, tabs, et0 and the English headers', () => {
    expect(parseWeatherCsv('date,et0,rain\n2026-04-01,5.2,\n2026-04-02,5.0,12.5\n')).toEqual({
      ok: true,
      kind: 'daily',
      days: [
        { date: '2026-04-01', et0: 5.2 },
        { date: '2026-04-02', et0: 5, rain: 12.5 },
      ],
    });
    const tab = parseWeatherCsv(
      'date\ttmax\ttmin\trh_max\trh_min\twind\tsunshine\train\n2026-04-01\t30,5\t12\t80\t30\t2\t10,5\t0\n',
    );
    expect(tab).toMatchObject({
      ok: true,
      days: [
        {
          date: '2026-04-01',
          weather: { tmax: 30.5, rhmax: 80, rhmin: 30, windSpeed: 2, sunshineHours: 10.5 },
        },
      ],
    });
    // A daily file's humidity column reads as the mean RH; a 00:00 time is allowed.
    expect(parseWeatherCsv('fecha;tmax;tmin;hr\n01/04/2026 00:00;30;12;50\n')).toMatchObject({
      ok: true,
      days: [{ date: '2026-04-01', weather: { rhmean: 50 } }],
    });
    // With both et0 and the weather, a row may give either.
    expect(
      parseWeatherCsv('date,et0,tmax,tmin\n2026-04-01,5,,\n2026-04-02,,30,12\n'),
    ).toMatchObject({
      ok: true,
      days: [{ et0: 5 }, { weather: { tmax: 30, tmin: 12 } }],
    });
  });

  it('names the row and the field of every bad cell, in both languages', () => {
    const csv = [
      'fecha;tmax;tmin;hr_max;hr_min;lluvia',
      '01/04/2026;30;12;80;30;0',
      '02/04/2026;30;;80;30;0',
      '03/04/2026;treinta;12;80;150;0',
      '05/04/2026;30;12;80;30;-1',
      '31/04/2026;30;12;80;30;0',
      '01/05/2026;1.234,5;12;80;30;0',
    ].join('\n');
    const result = parseWeatherCsv(csv);
    expect(texts(result, 'es')).toEqual([
      'fila 3: falta temperatura mínima',
      'fila 4: temperatura máxima «treinta» no es un número',
      'fila 4: humedad mínima 150 % fuera de 0-100',
      'fila 5: fecha 05/04/2026 fuera de orden: se esperaba 2026-04-04',
      'fila 5: lluvia -1 mm fuera de 0-500',
      'fila 6: fecha «31/04/2026» no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)',
      'fila 7: temperatura máxima «1.234,5» no es un número',
    ]);
    expect(texts(result, 'en')).toEqual([
      'row 3: minimum temperature missing',
      "row 4: maximum temperature 'treinta' is not a number",
      'row 4: minimum humidity 150 % outside 0-100',
      'row 5: date 05/04/2026 out of order: expected 2026-04-04',
      'row 5: rain -1 mm outside 0-500',
      "row 6: date '31/04/2026' is not a valid date (YYYY-MM-DD or DD/MM/YYYY)",
      "row 7: maximum temperature '1.234,5' is not a number",
    ]);
    expect(errors(result)[2]).toEqual({
      row: 4,
      column: 'rhmin',
      code: 'range',
      value: '150',
      min: 0,
      max: 100,
      unit: '%',
    });
    expect(
      texts(parseWeatherCsv('date,tmax,tmin\n2026-04-01,70,12\n,30,12\n2026-04-03,30,12\n')),
    ).toEqual(['row 2: maximum temperature 70 °C outside -50 to 60', 'row 3: date missing']);
    expect(texts(parseWeatherCsv('date,et0\n2026-04-01,\n'))).toEqual(['row 2: ET0 missing']);
    // With `,` the decimal is a point: a quoted "25,3" is not a number.
    expect(texts(parseWeatherCsv('date,et0\n2026-04-01,"5,2"\n'))).toEqual([
      "row 2: ET0 '5,2' is not a number",
    ]);
  });

  it('checks the header', () => {
    expect(texts(parseWeatherCsv('fecha;lluvia\n01/04/2026;0\n'), 'es')).toEqual([
      'fila 1: falta la columna ET0 (o tmax y tmin)',
    ]);
    expect(texts(parseWeatherCsv('date,tmax,rain\n2026-04-01,30,0\n'))).toEqual([
      'row 1: no minimum temperature column',
    ]);
    expect(texts(parseWeatherCsv('dia,et0\n01/04/2026;5\n', 'hourly'))).toEqual([
      'row 1: no time column',
      'row 1: no temperature column',
      'row 1: no humidity column',
    ]);
    expect(texts(parseWeatherCsv('x,y\n1,2\n'), 'es')).toEqual([
      'fila 1: falta la columna fecha (o fecha_hora)',
    ]);
    expect(texts(parseWeatherCsv('time,temperature,hr,humedad\n'), 'es')).toEqual([
      'fila 1: la columna «humedad» repite humedad',
    ]);
    expect(texts(parseWeatherCsv('\n\nrow,time,temperature,hr,humidity\n'))).toEqual([
      "row 3: column 'humidity' repeats humidity",
    ]);
    expect(texts(parseWeatherCsv('date,et0\n\n'))).toEqual(['row 2: no data below the header']);
    expect(texts(parseWeatherCsv(' \n'), 'es')).toEqual(['fila 1: el archivo está vacío']);
    expect(texts(parseWeatherCsv(''))).toEqual(['row 1: the file is empty']);
    expect(texts(parseWeatherCsv('date,et0\n', 'daily'), 'es')).toEqual([
      'fila 2: no hay datos debajo del encabezado',
    ]);
  });
});

describe('parseWeatherCsv: hourly', () => {
  it('reads `,` with points, the leaf wetness when given, and the rain', () => {
    const csv = [
      'time,temperature,rh,leaf_wetness,rain',
      '2026-06-01T00:00,18.5,95,1,0.4',
      '2026-06-01 01:00,18.1,96,,',
      '2026-06-01 02:00:00,17.9,88,true,',
      '01/06/2026 03:00,17.5,92,0,',
    ].join('\n');
    expect(parseWeatherCsv(csv)).toEqual({
      ok: true,
      kind: 'hourly',
      hours: [
        { time: '2026-06-01T00:00', temperature: 18.5, rh: 95, leafWet: 1, rain: 0.4 },
        { time: '2026-06-01T01:00', temperature: 18.1, rh: 96 },
        { time: '2026-06-01T02:00', temperature: 17.9, rh: 88, leafWet: true },
        { time: '2026-06-01T03:00', temperature: 17.5, rh: 92, leafWet: 0 },
      ],
    });
  });

  it('reads Spanish headers, `;` and decimal commas, and a date column beside an hour column', () => {
    const csv =
      'Fecha;Hora;Temperatura;Humedad;Mojadura;Lluvia\n01/06/2026;23:00;18,5;95;;1,5\n02/06/2026;0:00;18;96;1;0\n';
    expect(parseWeatherCsv(csv)).toEqual({
      ok: true,
      kind: 'hourly',
      hours: [
        { time: '2026-06-01T23:00', temperature: 18.5, rh: 95, rain: 1.5 },
        { time: '2026-06-02T00:00', temperature: 18, rh: 96, leafWet: 1, rain: 0 },
      ],
    });
  });

  it('names a bad row: fila 12: humedad 150 % fuera de 0-100', () => {
    // The header is row 1: ten good hours are rows 2-11.
    const rows = hourlyRows(10);
    rows.push('2026-06-01T10:00,20.5,150');
    const result = parseWeatherCsv(['time,temperature,rh', ...rows].join('\n'));
    expect(texts(result, 'es')).toEqual(['fila 12: humedad 150 % fuera de 0-100']);
    expect(texts(result, 'en')).toEqual(['row 12: humidity 150 % outside 0-100']);
  });

  it('collects every error, up to the cap', () => {
    const csv = [
      'time,temperature,rh,leaf_wetness,rain',
      '2026-06-01T00:00,18,95,2,',
      '2026-06-01T02:00,,95,,',
      '2026-06-01T03:00,18,,x,300',
      '2026-06-01T03:30:15,18,95,,',
      ',18,95,,',
    ].join('\n');
    expect(texts(parseWeatherCsv(csv), 'es')).toEqual([
      'fila 2: mojadura de la hoja 2 fuera de 0-1',
      'fila 3: fecha y hora 2026-06-01T02:00 fuera de orden: se esperaba 2026-06-01T01:00',
      'fila 3: falta temperatura',
      'fila 4: falta humedad',
      'fila 4: mojadura de la hoja «x» no es un número',
      'fila 4: lluvia 300 mm fuera de 0-200',
      'fila 5: fecha y hora «2026-06-01T03:30:15» no es una fecha y hora válida (AAAA-MM-DD HH:mm o DD/MM/AAAA HH:mm)',
      'fila 6: falta fecha y hora',
    ]);
    expect(texts(parseWeatherCsv('time,temperature,rh\n2026-06-01,18,95\n'))).toEqual([
      "row 2: time '2026-06-01' is not a valid time (YYYY-MM-DD HH:mm or DD/MM/YYYY HH:mm)",
    ]);
    const many = ['time,temperature,rh', ...hourlyRows(30, () => '20,150')].join('\n');
    const capped = errors(parseWeatherCsv(many));
    expect(capped).toHaveLength(WEATHER_CSV_MAX_ERRORS);
    expect(capped[19]!.row).toBe(21);
  });
});

describe('the sample files', () => {
  it('daily: 60 days of a Spanish spreadsheet that the water balance takes', () => {
    expect(SAMPLE_DAILY_CSV.split('\n')[0]).toBe(
      'fecha;tmax;tmin;hr_max;hr_min;viento;insolación;lluvia',
    );
    const result = parseWeatherCsv(SAMPLE_DAILY_CSV);
    if (!result.ok || result.kind !== 'daily') return expect.fail('the daily sample must parse');
    expect(result.days).toHaveLength(60);
    expect(result.days[0]!.date).toBe('2026-04-01');
    expect(result.days[59]!.date).toBe('2026-05-30');
    const rains = result.days.filter((d) => (d.rain ?? 0) > 0).map((d) => d.rain!);
    expect(rains.length).toBeGreaterThanOrEqual(4);
    expect(Math.min(...rains)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...rains)).toBeLessThanOrEqual(25);
    const balance = waterBalance({
      fieldCapacity: 0.3,
      wiltingPoint: 0.15,
      rootDepth: 0.7,
      p: 0.4,
      strategy: 'depletion',
      latitude: SAMPLE_DAILY_SITE.latitude,
      altitude: SAMPLE_DAILY_SITE.altitude,
      days: result.days,
    });
    expect(balance.days.every((d) => d.et0Method === 'penman-monteith')).toBe(true);
    for (const d of balance.days) {
      expect(d.et0).toBeGreaterThan(3);
      expect(d.et0).toBeLessThan(8);
    }
    expect(balance.totals.irrigations).toBeGreaterThan(0);
  });

  it('hourly: 240 hours that fire a TOMCAST and a late blight alert', () => {
    expect(SAMPLE_HOURLY_CSV.split('\n')[0]).toBe('time,temperature,rh,leaf_wetness,rain');
    const result = parseWeatherCsv(SAMPLE_HOURLY_CSV, 'hourly');
    if (!result.ok || result.kind !== 'hourly') return expect.fail('the hourly sample must parse');
    expect(result.hours).toHaveLength(240);
    const withSensor = result.hours.filter((h) => h.leafWet !== undefined).length;
    expect(withSensor).toBeGreaterThan(0);
    expect(withSensor).toBeLessThan(240);
    const risk = diseaseRisk({ hours: result.hours });
    expect(risk.tomcastAlerts).toEqual(['2026-06-06']);
    expect(risk.lateBlightAlerts).toEqual(['2026-06-08']);
    expect(risk.days).toHaveLength(10);
  });
});
