import { describe, expect, it } from 'vitest';
import { configFor, defaultModelVersion } from './model-choice.ts';

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

  it('is configured as tomato, leaf, DL', () => {
    expect(configFor('tomato_leaf_cnn_mobilenet')).toEqual({
      cultivo: 'tomate',
      nivel: 'hoja',
      tipo_modelo: 'DL',
      modelo_version: 'tomato_leaf_cnn_mobilenet',
    });
  });
});
