import fs from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A feature folder does not import another feature folder: what two features share moves
// to src/components or src/lib (see the layout section of README.md).
const features = fs.existsSync('apps/web/src/features')
  ? fs.readdirSync('apps/web/src/features')
  : [];
const featureBoundaries = features.map((f) => ({
  files: [`apps/web/src/features/${f}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/features/*', `!@/features/${f}`, `!@/features/${f}/**`, '@/app/*'],
            message:
              'A feature must not import another feature or the app: move shared code to src/components or src/lib.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-*/**',
      'data/**',
      'ml/**',
      'models/**',
      'coverage/**',
      'e2e/.artifacts/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-empty-pattern': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@diagrodl/server*', '@diagrodl/web*', 'react*', 'fastify*'],
              message: 'packages depend on nothing of ours but each other.',
            },
          ],
        },
      ],
    },
  },
  {
    // Golden values are written with every digit worked out by hand (bc): documentation, not arithmetic.
    files: ['packages/hydraulics/src/**/*.test.ts'],
    rules: { 'no-loss-of-precision': 'off' },
  },
  ...featureBoundaries,
);
