import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const LoginPage = lazy(() => import('./LoginPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const authPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.login]: <LoginPage />,
};
