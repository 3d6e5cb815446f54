import { describe, expect, it } from 'vitest';
import type { LoadedModel } from '@diagrodl/contracts';
import { configFor, defaultModelVersion, preselectedVersion } from './model-choice.ts';

describe('the model a person gets without choosing one', () => {
  it('is the one the server marks as its default', () => {
    expect(
      defaultModelVersion([
        { id: 'resnet50' },
        { id: 'mobilenet' },
        { id: 'ensemble', isDefault: true },
      ]),
    ).toBe('ensemble');
    expect(defaultModelVersion([{ id: 'mobilenet', isDefault: true }, { id: 'ensemble' }])).toBe(
      'tomato_leaf_cnn_mobilenet',
    );
  });

  it('without a mark, the MobileNet whenever it is loaded, whatever the order the server lists', () => {
    expect(defaultModelVersion([{ id: 'resnet50' }, { id: 'ensemble' }, { id: 'mobilenet' }])).toBe(
      'tomato_leaf_cnn_mobilenet',
    );
  });

  it("else the first loaded model in the configuration page's order", () => {
    expect(defaultModelVersion([{ id: 'resnet50' }, { id: 'vgg16' }])).toBe(
      'Tomato_leaf_cnn_vgg16',
    );
    expect(defaultModelVersion([{ id: 'ensemble' }])).toBe('ensemble');
  });

  it('is undefined when the server has no model loaded', () => {
    expect(defaultModelVersion([])).toBeUndefined();
  });

  it("on the configuration page, gives way to the person's stored choice while it is loaded", () => {
    const models: Pick<LoadedModel, 'id' | 'isDefault'>[] = [
      { id: 'resnet50' },
      { id: 'mobilenet' },
      { id: 'ensemble', isDefault: true },
    ];
    expect(preselectedVersion(models, 'Tomato_leaf_cnn_resnet50')).toBe('Tomato_leaf_cnn_resnet50');
    expect(preselectedVersion(models, 'tomato_leaf_cnn_mobilenet')).toBe(
      'tomato_leaf_cnn_mobilenet',
    );
    // never chosen, a model no longer loaded, or a value the selector does not know: the default
    expect(preselectedVersion(models, undefined)).toBe('ensemble');
    expect(preselectedVersion(models, 'Tomato_leaf_cnn_vgg16')).toBe('ensemble');
    expect(preselectedVersion(models, 'nonsense')).toBe('ensemble');
  });

  it('is configured as tomato, leaf, DL', () => {
    expect(configFor('tomato_leaf_cnn_mobilenet')).toEqual({
      cultivo: 'tomate',
      nivel: 'hoja',
      tipo_modelo: 'DL',
      modelo_version: 'tomato_leaf_cnn_mobilenet',
    });
  });
});
