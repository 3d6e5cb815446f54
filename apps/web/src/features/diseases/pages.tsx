import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';
import { DISEASES } from './catalog.ts';

// Each page is its own chunk, and each content file is loaded on demand (content.ts).
const DiseasePage = lazy(() => import('./DiseasePage.tsx'));
const TomatoCropsPage = lazy(() => import('./TomatoCropsPage.tsx'));
const AboutToolPage = lazy(() => import('./AboutToolPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const diseasesPages: Partial<Record<string, ReactNode>> = {
  ...Object.fromEntries(DISEASES.map((d) => [d.route, <DiseasePage key={d.slug} slug={d.slug} />])),
  [ROUTES.tomatoCrops]: <TomatoCropsPage />,
  [ROUTES.aboutTool]: <AboutToolPage />,
};
