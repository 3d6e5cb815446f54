import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const AboutPage = lazy(() => import('./AboutPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const aboutPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.about]: <AboutPage />,
};
