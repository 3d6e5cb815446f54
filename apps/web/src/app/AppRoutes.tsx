import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { DISEASE_ROUTES, OPEN_ROUTES, PROTECTED_ROUTES, ROUTES } from '@diagrodl/contracts';
import { NotFound } from '@/components/NotFound.tsx';
import { UnderConstruction } from '@/components/UnderConstruction.tsx';
import { useSession } from '@/lib/session.tsx';
import { aboutPages } from '@/features/about/pages.tsx';
import { accountPages } from '@/features/account/pages.tsx';
import { authPages } from '@/features/auth/pages.tsx';
import { contactPages } from '@/features/contact/pages.tsx';
import { diagnosisPages } from '@/features/diagnosis/pages.tsx';
import { diseasesPages } from '@/features/diseases/pages.tsx';
import { landingPages } from '@/features/landing/pages.tsx';
import { toolsPages } from '@/features/tools/pages.tsx';
import { Loading } from './Loading.tsx';
import { AuthShell } from './shells/AuthShell.tsx';
import { DiseaseShell } from './shells/DiseaseShell.tsx';
import { PublicShell } from './shells/PublicShell.tsx';

/**
 * What each route renders: each feature lists its own pages in its pages.tsx. Routes without
 * an entry belong to later work and show their title with 'En construcción'.
 */
const PAGES: Partial<Record<string, ReactNode>> = {
  ...landingPages,
  ...aboutPages,
  ...authPages,
  ...accountPages,
  ...contactPages,
  ...toolsPages,
  ...diseasesPages,
  ...diagnosisPages,
};

function page(path: string): ReactNode {
  return PAGES[path] ?? <UnderConstruction path={path} />;
}

/** Visitors get the public shell, logged-in users the shell with the sidebar. */
function AdaptiveShell() {
  const { status, isAuthenticated } = useSession();
  if (status === 'loading') return <Loading />;
  return isAuthenticated ? <AuthShell /> : <PublicShell />;
}

/** A visitor who opens a tool goes to the login page, and comes back after logging in. */
function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  if (!isAuthenticated) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`${ROUTES.login}?next=${next}`} replace />;
  }
  return children;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<DiseaseShell />}>
        {DISEASE_ROUTES.map((path) => (
          <Route key={path} path={path} element={page(path)} />
        ))}
      </Route>
      <Route element={<AdaptiveShell />}>
        {OPEN_ROUTES.map((path) => (
          <Route key={path} path={path} element={page(path)} />
        ))}
        {PROTECTED_ROUTES.map((path) => (
          <Route key={path} path={path} element={<RequireAuth>{page(path)}</RequireAuth>} />
        ))}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
