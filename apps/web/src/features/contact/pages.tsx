import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const ContactPage = lazy(() => import('./ContactPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const contactPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.contact]: <ContactPage />,
};
