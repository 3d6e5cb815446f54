import type { ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';
import { LandingPage } from './LandingPage.tsx';

/**
 * Routes this feature renders (path of the specification -> page element). The landing page is
 * the first thing most visitors load, so it is in the main bundle, not loaded lazily.
 */
export const landingPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.home]: <LandingPage />,
};
