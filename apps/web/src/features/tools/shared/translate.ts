import type { useTranslation } from 'react-i18next';

/** The i18next `t` the tools' pure functions (reports) receive from their page. */
export type Translate = ReturnType<typeof useTranslation>['t'];
