import { Outlet } from 'react-router';
import { DiseaseTopNav } from '@/components/DiseaseTopNav.tsx';
import { Header, SkipLink } from '@/components/Header.tsx';
import { Footer } from './Footer.tsx';

/** Disease, crop and tool-description pages: header image and the disease top navigation bar. */
export function DiseaseShell() {
  return (
    <div className="shell shell-disease" data-shell="disease">
      <SkipLink />
      <Header />
      <DiseaseTopNav />
      <main id="main" className="container-fluid py-3 flex-grow-1" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
