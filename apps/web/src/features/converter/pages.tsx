import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const ConverterPage = lazy(() => import('./ConverterPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const converterPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.converter]: <ConverterPage />,
};
