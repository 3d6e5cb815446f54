import { lazy, type ReactNode } from 'react';
import { ROUTES } from '@diagrodl/contracts';

const ToolHomePage = lazy(() => import('./components/ToolHomePage.tsx'));
const CustomPage = lazy(() => import('./components/CustomPage.tsx'));
const UploadPage = lazy(() => import('./components/UploadPage.tsx'));
const PredictPage = lazy(() => import('./components/PredictPage.tsx'));
const ReportPage = lazy(() => import('./components/ReportPage.tsx'));
const ResultsPage = lazy(() => import('./components/ResultsPage.tsx'));
const HistoryPage = lazy(() => import('./components/HistoryPage.tsx'));

/** Routes this feature renders (path of the specification -> page element). */
export const diagnosisPages: Partial<Record<string, ReactNode>> = {
  [ROUTES.tool]: <ToolHomePage />,
  [ROUTES.custom]: <CustomPage />,
  [ROUTES.upload]: <UploadPage />,
  [ROUTES.predictRows]: <PredictPage />,
  [ROUTES.createReport]: <ReportPage />,
  [ROUTES.getPredict]: <ResultsPage />,
  [ROUTES.history]: <HistoryPage />,
};
