import { Outlet } from 'react-router';
import { DiseaseTopNav } from '@/components/DiseaseTopNav.tsx';
import { Header, SkipLink } from '@/components/Header.tsx';
import { LanguageToggle } from '@/components/LanguageToggle.tsx';
import { useSession } from '@/lib/session.tsx';
import { Loading } from '../Loading.tsx';
import { AuthShell } from './AuthShell.tsx';
import { Footer } from './Footer.tsx';

/**
 * Disease, crop and tool-description pages: header image and the disease top navigation bar. A
 * logged-in user keeps the sidebar shell around them; the language switch stays in the header, in
 * sight at every width (not folded into the bar's menu on a phone).
 */
export function DiseaseShell() {
  const { status, isAuthenticated } = useSession();
  if (status === 'loading') return <Loading />;
  if (isAuthenticated) return <AuthShell shell="disease" topNav={<DiseaseTopNav />} />;
  return (
    <div className="shell shell-disease" data-shell="disease">
      <SkipLink />
      <Header>
        <div className="ms-auto d-flex align-items-center">
          <LanguageToggle />
        </div>
      </Header>
      <DiseaseTopNav />
      <main id="main" className="container-fluid py-3 flex-grow-1" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
