import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const ConverterPage = lazy(() => import('./converter/ConverterPage.tsx'));
const LateralPage = lazy(() => import('./lateral/LateralPage.tsx'));
const SecondaryPage = lazy(() => import('./secondary/SecondaryPage.tsx'));
const MainlinePage = lazy(() => import('./mainline/MainlinePage.tsx'));
const SchedulePage = lazy(() => import('./schedule/SchedulePage.tsx'));
const SeasonPage = lazy(() => import('./season/SeasonPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const toolsPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.converter]: <ConverterPage />,
  [ROUTES.lateralDesigner]: <LateralPage />,
  [ROUTES.secondaryDesigner]: <SecondaryPage />,
  [ROUTES.principalDesigner]: <MainlinePage />,
  [ROUTES.irrigationScheduling]: <SchedulePage />,
  [ROUTES.seasonCalendar]: <SeasonPage />,
};
