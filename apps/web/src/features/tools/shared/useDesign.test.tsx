import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESIGN, init, type Saved } from '../converter/state.ts';
import { DESIGN as LATERAL } from '../lateral/state.ts';
import { DESIGN as MAINLINE } from '../mainline/state.ts';
import { autosave, clearAutosave, designFile, loadAutosave, readFileText } from './export.ts';
import { useDesign } from './useDesign.ts';

const KM_TO_M: Saved = {
  measure: 'length',
  from: 'km',
  to: 'm',
  value: '2,5',
  executed: true,
  showAll: false,
};

afterEach(() => {
  clearAutosave(DESIGN.kind);
  clearAutosave(LATERAL.kind);
  clearAutosave(MAINLINE.kind);
  vi.restoreAllMocks();
});

/** The files the page would download (their blobs), with no download made. */
function captureDownloads(): Blob[] {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:design';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return blobs;
}

describe('useDesign (autosave, restore, design files)', () => {
  it('starts a new design when nothing was saved, and writes nothing on the first render', () => {
    const { result } = renderHook(() => useDesign(DESIGN));
    expect(result.current.state).toEqual(init(null));
    expect(loadAutosave(DESIGN.kind)).toBeNull();
  });

  it('restores the autosaved design on the first render', () => {
    autosave(DESIGN.kind, KM_TO_M);
    const { result } = renderHook(() => useDesign(DESIGN));
    expect(result.current.state).toEqual({ ...KM_TO_M, errors: {}, attempt: 0 });
  });

  it('autosaves every change after the first render', () => {
    const { result } = renderHook(() => useDesign(DESIGN));
    act(() => result.current.dispatch({ type: 'update', patch: { value: '7' } }));
    expect(loadAutosave(DESIGN.kind)).toMatchObject({ value: '7', executed: false });
  });

  it('opens a design file of its own tool and refuses any other', () => {
    const { result } = renderHook(() => useDesign(DESIGN));
    const before = result.current.state;
    let opened = true;
    act(() => {
      opened = result.current.files.onLoadJson(JSON.stringify(designFile('lateral', KM_TO_M)));
    });
    expect(opened).toBe(false);
    act(() => {
      opened = result.current.files.onLoadJson('not JSON');
    });
    expect(opened).toBe(false);
    expect(result.current.state).toBe(before);

    act(() => {
      opened = result.current.files.onLoadJson(JSON.stringify(designFile('converter', KM_TO_M)));
    });
    expect(opened).toBe(true);
    expect(result.current.state).toEqual({ ...KM_TO_M, errors: {}, attempt: 0 });
    // The opened design is the one autosaved from now on.
    expect(loadAutosave(DESIGN.kind)).toEqual(KM_TO_M);
  });

  it('saves the design as a file of its kind, which opens back to the same state', async () => {
    const blobs = captureDownloads();
    autosave(DESIGN.kind, KM_TO_M);
    const { result } = renderHook(() => useDesign(DESIGN));
    act(() => result.current.files.onSaveJson());
    expect(blobs).toHaveLength(1);
    const text = await readFileText(blobs[0]!);
    expect(JSON.parse(text)).toMatchObject({ kind: 'converter', version: 1, data: KM_TO_M });

    clearAutosave(DESIGN.kind);
    const fresh = renderHook(() => useDesign(DESIGN)).result;
    expect(fresh.current.state).toEqual(init(null));
    act(() => {
      fresh.current.files.onLoadJson(text);
    });
    expect(fresh.current.state).toEqual(result.current.state);
  });
});

describe('useDesign with a designer: the results shown come back, not those of later edits', () => {
  it('lateral: a reload (autosave) and the design file bring back the calculated input', async () => {
    const blobs = captureDownloads();
    const { result } = renderHook(() => useDesign(LATERAL));
    act(() => result.current.dispatch({ type: 'calculate' }));
    const calculation = result.current.state.calculation;
    expect(calculation?.input.Po).toBe(10);
    // Po = 0 typed, not calculated: the results shown are still those of Po = 10.
    act(() => result.current.dispatch({ type: 'raw', key: 'Po', value: '0' }));
    act(() => result.current.files.onSaveJson());

    const reloaded = renderHook(() => useDesign(LATERAL)).result;
    expect(reloaded.current.state).toEqual(result.current.state);
    expect(reloaded.current.state.raw.Po).toBe('0');
    expect(reloaded.current.state.calculation).toEqual(calculation);

    clearAutosave(LATERAL.kind);
    const fresh = renderHook(() => useDesign(LATERAL)).result;
    expect(fresh.current.state.calculation).toBeNull();
    const text = await readFileText(blobs[0]!);
    act(() => {
      fresh.current.files.onLoadJson(text);
    });
    expect(fresh.current.state).toEqual(result.current.state);
  });

  it('main line: a reload keeps the totals with the pressure they were made with', () => {
    const { result } = renderHook(() => useDesign(MAINLINE));
    const key = result.current.state.sections[0]!.key;
    const section = {
      pipeType: 'PVC_RD26',
      nominalDiameter: '150',
      flow: '30',
      length: '420.5',
      slope: '0.004',
    };
    act(() => {
      result.current.dispatch({ type: 'pressure', value: '30' });
      for (const [field, value] of Object.entries(section)) {
        result.current.dispatch({ type: 'raw', key, field: field as never, value });
      }
      result.current.dispatch({ type: 'totals' });
    });
    const totals = result.current.state.totals;
    expect(totals?.initialPressure).toBe(30);
    act(() => {
      result.current.dispatch({ type: 'pressure', value: '50' });
      result.current.dispatch({ type: 'raw', key, field: 'flow', value: '10' });
    });
    const reloaded = renderHook(() => useDesign(MAINLINE)).result;
    expect(reloaded.current.state).toEqual(result.current.state);
    expect(reloaded.current.state.initialPressure).toBe('50');
    expect(reloaded.current.state.totals).toEqual(totals);
  });
});
