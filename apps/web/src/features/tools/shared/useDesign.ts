import { useEffect, useReducer, useRef } from 'react';
import {
  autosave,
  designFile,
  downloadFile,
  fileStem,
  loadAutosave,
  readDesignFile,
} from './export.ts';

/** The action every design understands: replace the whole state (an opened file). */
export interface LoadAction<S> {
  type: '@load';
  state: S;
}

export interface DesignOptions<S, A, Saved> {
  /** The tool's name: the storage key of its autosave and the kind of its design files. */
  kind: string;
  /** The designer's pure reducer. */
  reducer: (state: S, action: A) => S;
  /** The state for a saved design (null: a new design). */
  init: (saved: Saved | null) => S;
  /** Reads a saved design back (from storage or a file); null when it is not one. */
  parse: (data: unknown) => Saved | null;
  /** What is saved of the state (autosave and the design file; `parse` reads it back). */
  toSaved: (state: S) => unknown;
}

/**
 * A designer's state and its life outside the page: restored from the browser's storage on the
 * first render, autosaved on every change after it, saved to a JSON design file (`save`) and
 * opened from one (`open`, false when the text is not a design of this tool); `files` are the
 * two as the export bar's handlers.
 */
export function useDesign<S, A, Saved>(design: DesignOptions<S, A, Saved>) {
  const { kind, reducer, init, parse, toSaved } = design;
  const [state, dispatch] = useReducer(
    (s: S, a: A | LoadAction<S>) =>
      (a as LoadAction<S>).type === '@load' ? (a as LoadAction<S>).state : reducer(s, a as A),
    undefined,
    () => init(parse(loadAutosave(kind))),
  );
  const first = useRef(true);
  const saved = toSaved(state);
  const savedText = JSON.stringify(saved);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    autosave(kind, JSON.parse(savedText));
  }, [kind, savedText]);

  const save = () =>
    downloadFile(
      `${fileStem(kind)}.json`,
      'application/json',
      JSON.stringify(designFile(kind, saved), null, 2),
    );
  const open = (text: string): boolean => {
    const loaded = parse(readDesignFile(text, kind));
    if (!loaded) return false;
    dispatch({ type: '@load', state: init(loaded) });
    return true;
  };
  return {
    state,
    dispatch: dispatch as (action: A) => void,
    save,
    open,
    files: { onSaveJson: save, onLoadJson: open },
  };
}
