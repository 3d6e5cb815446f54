import { describe, expect, it } from 'vitest';
import { MAINLINE_MESSAGES, SECONDARY_MESSAGES, STATUS_HERE } from './messages';
import { formatMessageNumber } from './numbers';

// Every user-facing text of the irrigation tools, as the specification (§4, §5, §8) writes it.
describe('specification messages, word for word', () => {
  it('secondary designer', () => {
    expect(STATUS_HERE).toBe('Status Here');
    expect(SECONDARY_MESSAGES.selectValue('Pipe type', 2)).toBe(
      'Please select valid value in selector Pipe type of section or form 2',
    );
    expect(SECONDARY_MESSAGES.empty('qs', 2)).toBe(
      'Please enter something, Numeric characters. Check input: qs in this section or form: 2',
    );
    expect(SECONDARY_MESSAGES.ndInteger).toBe(
      'Please only enter numeric characters, integer type (Allowed input:1-5)...',
    );
    expect(SECONDARY_MESSAGES.noNegative).toBe('No negative values!...');
    expect(SECONDARY_MESSAGES.floatPositive).toBe('Float type (Allowed input:more than 0)...');
    expect(SECONDARY_MESSAGES.maxSections).toBe('Only 20 sections are allowed, restart process!!');
    expect(SECONDARY_MESSAGES.sectionCount).toBe(
      'There must be at least one section or less than 21 sections!',
    );
    expect(SECONDARY_MESSAGES.noDiameter(3)).toBe(
      'There is no diameter that meets your hydraulic need in this catalog.!!! Check section:3',
    );
    expect(SECONDARY_MESSAGES.oneDiameter(3)).toBe(
      'Verify your data, you can use one diameter to design, it is because the last diameter available satisfy your hydraulic necessity!!! Check section:3',
    );
    expect(SECONDARY_MESSAGES.lossHigh(3)).toBe(
      'Section 3 Verify yours data input, loss pressure is hight!',
    );
    expect(SECONDARY_MESSAGES.danger(3, 2.34567, 2)).toBe(
      'Section 3 Verify yours data input, loss pressure is bigger than HFp! HF:2.346 > HFp:2',
    );
    expect(SECONDARY_MESSAGES.ok(1.5, 2)).toBe("This section it's OK! HF:1.5 < HFp:2");
  });

  it('never prints two different numbers alike on both sides of < or >', () => {
    // hf 2.3415335 against HFp 2.342 both round to 2.342 at three decimals
    expect(SECONDARY_MESSAGES.ok(2.3415335, 2.342)).toBe(
      "This section it's OK! HF:2.3415 < HFp:2.342",
    );
    expect(SECONDARY_MESSAGES.ok(2.3415335, 2.3416)).toBe(
      "This section it's OK! HF:2.3415 < HFp:2.3416",
    );
    expect(SECONDARY_MESSAGES.danger(1, 2.3420004, 2.342)).toBe(
      'Section 1 Verify yours data input, loss pressure is bigger than HFp! HF:2.3420004 > HFp:2.342',
    );
    // a difference beyond 9 decimals is not shown
    expect(SECONDARY_MESSAGES.danger(1, 2.342 + 1e-12, 2.342)).toBe(
      'Section 1 Verify yours data input, loss pressure is bigger than HFp! HF:2.342 > HFp:2.342',
    );
    // a screen's formatter gets the same digits (es-MX: a decimal point, no grouping)
    const screen = (v: number, digits = 3) => v.toFixed(digits).replace(/\.?0+$/, '');
    expect(SECONDARY_MESSAGES.ok(1000.0001, 1000.0004, screen)).toBe(
      "This section it's OK! HF:1000.0001 < HFp:1000.0004",
    );
  });

  it('main-line designer', () => {
    expect(MAINLINE_MESSAGES.selectPipeType(2)).toBe('Please select type pipe in this section 2');
    expect(MAINLINE_MESSAGES.threeDecimals).toBe(
      'Please only enter numeric characters, float type with three decimals...',
    );
    expect(MAINLINE_MESSAGES.slope).toBe(
      "Please only enter slope in decimal unit, it's should be -1.0 < slope < 1.0...",
    );
    expect(MAINLINE_MESSAGES.initialPressure).toBe(
      "Please enter some initial pressure in decimal unit, it's should be > 0 meters",
    );
    expect(MAINLINE_MESSAGES.unavailable(2)).toBe(
      'Section 2 Select another nominal diameter, because it is not available in the current catalog!',
    );
    expect(MAINLINE_MESSAGES.velocity).toBe(
      'Verify yours data input, the velocity in pipe is dangerous!',
    );
    expect(MAINLINE_MESSAGES.hfNegative).toBe('the hf is negative!');
    expect(MAINLINE_MESSAGES.ok).toBe("This section it's OK!");
    expect(MAINLINE_MESSAGES.sectionsWithErrors(3)).toBe(
      'There are 3 sections with errors, check this please.',
    );
  });

  it('formats message numbers with at most three decimals', () => {
    expect(formatMessageNumber(1.23456)).toBe('1.235');
    expect(formatMessageNumber(2)).toBe('2');
    expect(formatMessageNumber(0)).toBe('0');
    expect(formatMessageNumber(0.000012345)).toBe('0.0000123');
  });
});
