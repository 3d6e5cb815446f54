import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { Maintenance } from '@/components/Maintenance.tsx';
import { SessionProvider } from '@/lib/session.tsx';
import { runtimeConfig } from '@/lib/runtime-config.ts';
import { AppRoutes } from './AppRoutes.tsx';
import { Loading } from './Loading.tsx';

export function App() {
  if (runtimeConfig().maintenance) return <Maintenance />;
  return (
    <BrowserRouter>
      <SessionProvider>
        <Suspense fallback={<Loading />}>
          <AppRoutes />
        </Suspense>
      </SessionProvider>
    </BrowserRouter>
  );
}
