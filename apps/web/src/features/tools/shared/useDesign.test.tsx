import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESIGN, init, type Saved } from '../converter/state.ts';
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
  vi.restoreAllMocks();
});

describe('useDesign (autosave, restore, design files)', () => {
  it('starts a new design when nothing was saved, and writes nothing on the first render', () => {
    const { result } = renderHook(() => useDesign(DESIGN));
    expect(result.current.state).toEqual(init(null));
    expect(loadAutosave(DESIGN.kind)).toBeNull();
  });

  it('restores the autosaved design on the first render', () => {
    autosave(DESIGN.kind, KM_TO_M);
    const { result } = renderHook(() => useDesign(DESIGN));
    expect(result.current.state).toEqual({ ...KM_TO_M, alert: null });
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
    expect(result.current.state).toEqual({ ...KM_TO_M, alert: null });
    // The opened design is the one autosaved from now on.
    expect(loadAutosave(DESIGN.kind)).toEqual(KM_TO_M);
  });

  it('saves the design as a file of its kind, which opens back to the same state', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:design';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
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
