import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const LateralPage = lazy(() => import('./lateral/LateralPage.tsx'));
const SecondaryPage = lazy(() => import('./secondary/SecondaryPage.tsx'));
const MainlinePage = lazy(() => import('./mainline/MainlinePage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const irrigationPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.lateralDesigner]: <LateralPage />,
  [ROUTES.secondaryDesigner]: <SecondaryPage />,
  [ROUTES.principalDesigner]: <MainlinePage />,
};
