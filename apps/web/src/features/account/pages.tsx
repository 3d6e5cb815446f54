import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const RegisterPage = lazy(() => import('./RegisterPage.tsx'));
const ChangePasswordPage = lazy(() => import('./ChangePasswordPage.tsx'));
const ResetPasswordPage = lazy(() => import('./ResetPasswordPage.tsx'));
const MyDataPage = lazy(() => import('./MyDataPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const accountPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.createAccount]: <RegisterPage />,
  [ROUTES.changePassword]: <ChangePasswordPage />,
  [ROUTES.resetPassword]: <ResetPasswordPage />,
  [ROUTES.myData]: <MyDataPage />,
};
