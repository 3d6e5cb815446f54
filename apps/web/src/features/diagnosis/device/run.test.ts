// Storage and model failures of the diagnosis on the device (run.ts, components/errors.ts): a
// full device and a model that cannot be loaded have messages of their own, in Spanish and
// English, instead of 'N foto no se pudo leer' or the browser's English inside 'No se pudo
// completar la operación: …'. The device's store is kept in memory here.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n.ts';
import { errorText, identifyErrorText } from '../components/errors.ts';
import { DeviceModelError, identifyOnDevice, keepOnDevice } from './run.ts';
import type { DevicePhoto } from './store.ts';

const store = vi.hoisted(() => new Map<string, DevicePhoto>());
const fail = vi.hoisted(() => ({ put: false, update: false, model: false }));
const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

vi.mock('./store.ts', async (original) => ({
  ...(await original<typeof import('./store.ts')>()),
  listDevicePhotos: async (owner: string) => [...store.values()].filter((p) => p.owner === owner),
  putDevicePhoto: async (p: DevicePhoto) => {
    if (fail.put) throw quota();
    store.set(p.id, { ...p });
  },
  updateDevicePhoto: async (id: string, patch: Partial<DevicePhoto>) => {
    if (fail.update) throw quota();
    const p = store.get(id);
    if (p) store.set(id, { ...p, ...patch });
    return p !== undefined;
  },
}));
vi.mock('./model.ts', () => ({
  loadDeviceModel: async () => {
    if (fail.model) throw new Error('no available backend found. ERR: [wasm] RuntimeError');
    return {};
  },
}));
vi.mock('./classify.ts', () => ({
  diagnosePhoto: async () => ({
    decision: { label: 'healthy', probability: 0.9, accepted: true, reason: null, top3: [] },
    cam: {},
  }),
  renderHeatmap: async () => new Blob(['h']),
}));

const photo = () => new File(['y'], 'hoja.jpg', { type: 'image/jpeg' });

beforeEach(async () => {
  store.clear();
  Object.assign(fail, { put: false, update: false, model: false });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await i18n.changeLanguage('es');
});

describe('a full device', () => {
  it('keeping a photo: says the device is full, in Spanish and English', async () => {
    fail.put = true;
    const err = await keepOnDevice('ana', photo()).catch((e: unknown) => e);
    expect(errorText(err, i18n.t)).toMatch(/^No queda espacio en este dispositivo/);
    await i18n.changeLanguage('en');
    expect(errorText(err, i18n.t)).toMatch(/^There is no space left on this device/);
  });

  it('keeping a result: the identification stops with that, not "could not be read"', async () => {
    await keepOnDevice('ana', photo());
    fail.update = true;
    const err = await identifyOnDevice('ana', () => undefined).catch((e: unknown) => e);
    expect(identifyErrorText(err, i18n.t)).toMatch(/^No queda espacio en este dispositivo/);
  });
});

describe('a model that cannot be loaded', () => {
  it('has a message of its own, not the runtime English', async () => {
    await keepOnDevice('ana', photo());
    fail.model = true;
    const err = await identifyOnDevice('ana', () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceModelError);
    expect(identifyErrorText(err, i18n.t)).toBe(i18n.t('diagnosis.device.loadFailed'));
    expect(identifyErrorText(err, i18n.t)).toMatch(/^No se pudo cargar el modelo/);
    await i18n.changeLanguage('en');
    expect(identifyErrorText(err, i18n.t)).toMatch(/^The diagnosis model could not be loaded/);
  });

  it('not kept on the device yet: the message it had', async () => {
    const err = new Error('offline-not-ready');
    expect(identifyErrorText(err, i18n.t)).toBe(i18n.t('diagnosis.device.unavailable'));
  });
});
