import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { OfflineNotice, UpdateOffer } from '@/components/AppStatus.tsx';
import { Maintenance } from '@/components/Maintenance.tsx';
import { DeviceWaitingNotice } from '@/features/diagnosis/device/DeviceSync.tsx';
import { SessionProvider } from '@/lib/session.tsx';
import { runtimeConfig } from '@/lib/runtime-config.ts';
import { AppRoutes } from './AppRoutes.tsx';
import { Loading } from './Loading.tsx';

export function App() {
  if (runtimeConfig().maintenance) return <Maintenance />;
  return (
    <BrowserRouter>
      <SessionProvider>
        <OfflineNotice />
        <UpdateOffer />
        <DeviceWaitingNotice />
        <Suspense fallback={<Loading />}>
          <AppRoutes />
        </Suspense>
      </SessionProvider>
    </BrowserRouter>
  );
}
