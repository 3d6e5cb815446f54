import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { useAccountSubmit } from './useAccountSubmit.ts';

describe('useAccountSubmit', () => {
  it('is busy while the call runs, then shows the message the call returns', async () => {
    const { result } = renderHook(() => useAccountSubmit());
    let finish: () => void = () => {};
    let ok: Promise<boolean> = Promise.resolve(false);
    act(() => {
      ok = result.current.submit(
        () =>
          new Promise((resolve) => {
            finish = () => resolve({ state: 'success', text: 'Contraseña cambiada' });
          }),
      );
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      finish();
      expect(await ok).toBe(true);
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.message).toEqual({ state: 'success', text: 'Contraseña cambiada' });
  });

  it("shows the server's refusal in its own words", async () => {
    const { result } = renderHook(() => useAccountSubmit());
    await act(async () => {
      const ok = await result.current.submit(() =>
        Promise.reject(new ApiError(400, 'La contraseña actual no es correcta.')),
      );
      expect(ok).toBe(false);
    });
    expect(result.current.message).toEqual({
      state: 'danger',
      text: 'La contraseña actual no es correcta.',
    });
    expect(result.current.busy).toBe(false);
  });

  it('says the server could not be reached when no answer came (status 0 or a thrown error)', async () => {
    const { result } = renderHook(() => useAccountSubmit());
    for (const err of [new ApiError(0, ''), new TypeError('Failed to fetch')]) {
      await act(async () => {
        await result.current.submit(() => Promise.reject(err));
      });
      expect(result.current.message).toEqual({
        state: 'danger',
        text: 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
      });
    }
  });
});
