import { describe, expect, it } from 'vitest';
import { MAINLINE_MESSAGES, SECONDARY_MESSAGES, STATUS_HERE } from './messages';
import {
  MAINLINE_MESSAGES_ES,
  SECONDARY_MESSAGES_ES,
  STATUS_HERE_ES,
  localizeToolMessage,
} from './messages-es';

describe('localizeToolMessage', () => {
  it('keeps the specification words on the English page', () => {
    expect(localizeToolMessage(STATUS_HERE, 'en')).toBe('Status Here');
    expect(localizeToolMessage(MAINLINE_MESSAGES.ok, 'en')).toBe("This section it's OK!");
  });

  it('says every message in Spanish, with its numbers and field names', () => {
    expect(localizeToolMessage(STATUS_HERE, 'es')).toBe(STATUS_HERE_ES);
    expect(localizeToolMessage(SECONDARY_MESSAGES.empty('ND', 3), 'es')).toBe(
      SECONDARY_MESSAGES_ES.empty('ND', '3'),
    );
    const danger = SECONDARY_MESSAGES.danger(2, 2.3416, 2.342);
    const figures = danger.slice(danger.indexOf('HF:'));
    expect(localizeToolMessage(danger, 'es')).toBe(
      `Sección 2: revisa tus datos, la pérdida de presión supera a HFp. ${figures}`,
    );
    expect(localizeToolMessage(SECONDARY_MESSAGES.ok(1.2, 3.4), 'es')).toBe(
      `¡Esta sección está bien! ${SECONDARY_MESSAGES.ok(1.2, 3.4).split('! ')[1]}`,
    );
    expect(localizeToolMessage(MAINLINE_MESSAGES.selectPipeType(4), 'es')).toBe(
      'Selecciona el tipo de tubería en la sección 4',
    );
    expect(localizeToolMessage(MAINLINE_MESSAGES.sectionsWithErrors(2), 'es')).toBe(
      MAINLINE_MESSAGES_ES.sectionsWithErrors('2'),
    );
    expect(localizeToolMessage(SECONDARY_MESSAGES.tooManyOutlets(5, 10000), 'es')).toBe(
      SECONDARY_MESSAGES_ES.tooManyOutlets('5', '10000'),
    );
  });

  it('turns every message of both tables, none left in English', () => {
    const sample = (m: string | ((...a: never[]) => string)) =>
      typeof m === 'string'
        ? m
        : (m as (...a: number[]) => string)(...[1, 2, 3].slice(0, m.length));
    const samples = [
      ...Object.values(SECONDARY_MESSAGES).map(sample),
      ...Object.values(MAINLINE_MESSAGES).map(sample),
    ];
    for (const text of samples) {
      const es = localizeToolMessage(text, 'es');
      expect(es, text).not.toBe(text);
      expect(es, text).not.toMatch(/\b(Please|section|Verify|the|is)\b/);
    }
  });

  it('names the fields in Spanish', () => {
    expect(localizeToolMessage(SECONDARY_MESSAGES.selectValue('Pipe type', 1), 'es')).toBe(
      'Selecciona un valor válido en el selector Tipo de tubería de la sección 1',
    );
  });

  it('leaves any other text as it is', () => {
    expect(localizeToolMessage('La lateral cumple.', 'es')).toBe('La lateral cumple.');
  });
});
