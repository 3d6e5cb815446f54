/**
 * Export helpers shared by the engineering tools: CSV text, file downloads, JSON design files
 * and the localStorage autosave that lets a half-done design survive a reload.
 */

export { toCsv, toCsvFile, type CsvCell } from '@diagrodl/contracts';

/**
 * Parses RFC 4180 CSV text into rows of strings (for tests and for reading our own files); the
 * byte-order mark our files start with (see toCsvFile) is not part of the first cell.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = text.startsWith('\uFEFF') ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Offers `data` as a file download named `fileName`. */
export function downloadFile(fileName: string, mime: string, data: string | Uint8Array): void {
  const part = typeof data === 'string' ? data : new Uint8Array(data);
  const url = URL.createObjectURL(new Blob([part], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A saved design: which tool wrote it, a format version and the tool's own data. */
export interface DesignFile<T> {
  kind: string;
  version: 1;
  savedAt: string;
  data: T;
}

export function designFile<T>(kind: string, data: T): DesignFile<T> {
  return { kind, version: 1, savedAt: new Date().toISOString(), data };
}

/**
 * Reads a design file's JSON text. Returns the data when the file is a design of `kind`,
 * otherwise null (not JSON, another tool's file, another version).
 */
export function readDesignFile(text: string, kind: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const file = parsed as Partial<DesignFile<unknown>>;
  if (file.kind !== kind || file.version !== 1 || !('data' in file)) return null;
  return file.data ?? null;
}

/** Reads a File chosen by the user as text. */
export function readFileText(file: Blob): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

const AUTOSAVE_PREFIX = 'diagrodl.autosave.';

/** Writes the design to the browser's storage (quietly does nothing when storage is unavailable). */
export function autosave(kind: string, data: unknown): void {
  try {
    localStorage.setItem(AUTOSAVE_PREFIX + kind, JSON.stringify(designFile(kind, data)));
  } catch {
    // storage full or disabled: the design still lives in the page
  }
}

/** The design last autosaved for `kind`, or null. */
export function loadAutosave(kind: string): unknown {
  try {
    const text = localStorage.getItem(AUTOSAVE_PREFIX + kind);
    return text === null ? null : readDesignFile(text, kind);
  } catch {
    return null;
  }
}

export function clearAutosave(kind: string): void {
  try {
    localStorage.removeItem(AUTOSAVE_PREFIX + kind);
  } catch {
    // nothing to clear
  }
}

/** Small runtime checks for data read back from files and storage. */
export const is = {
  record: (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v),
  string: (v: unknown): v is string => typeof v === 'string',
  boolean: (v: unknown): v is boolean => typeof v === 'boolean',
  /** A finite number (JSON writes NaN and Infinity as null). */
  number: (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v),
  stringRecord<K extends string>(v: unknown, keys: readonly K[]): v is Record<K, string> {
    return is.record(v) && keys.every((k) => typeof v[k] === 'string');
  },
  numberRecord<K extends string>(v: unknown, keys: readonly K[]): v is Record<K, number> {
    return is.record(v) && keys.every((k) => is.number(v[k]));
  },
};

/**
 * A saved designer section with its result again: calculated from the fields the result came
 * from (`calculatedRaw`; files saved before it was kept: the fields as typed), the fields shown
 * staying as typed.
 */
export function recalculateSaved<S extends { raw: R }, R>(
  section: S,
  calculatedRaw: R | null | undefined,
  calculate: (section: S) => S,
): S {
  if (!calculatedRaw) return calculate(section);
  return { ...calculate({ ...section, raw: calculatedRaw }), raw: section.raw };
}

/** A file name stem with the date: 'diagrodl-lateral-2026-11-21'. */
export function fileStem(tool: string, now = new Date()): string {
  return `diagrodl-${tool}-${now.toISOString().slice(0, 10)}`;
}
