import Nav from 'react-bootstrap/Nav';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { Header, SkipLink } from '@/components/Header.tsx';
import { LanguageToggle } from '@/components/LanguageToggle.tsx';
import { Footer } from './Footer.tsx';

/** The visitor's bar: log in, create an account, contact (then the tutorial and the language). */
const PUBLIC_LINKS = [
  [ROUTES.login, 'login'],
  [ROUTES.createAccount, 'createAccount'],
  [ROUTES.contact, 'contact'],
] as const;

/** For visitors: header image and the top bar of the specification. */
export function PublicShell() {
  const { t } = useTranslation();
  return (
    <div className="shell shell-public" data-shell="public">
      <SkipLink />
      <Header />
      <nav className="public-bar bg-success-subtle border-bottom" aria-label={t('public.navLabel')}>
        <div className="container-fluid d-flex flex-wrap align-items-center gap-2 py-2">
          <Nav as="ul" className="flex-wrap me-auto">
            {PUBLIC_LINKS.map(([to, key]) => (
              <Nav.Item key={key} as="li">
                <Nav.Link as={NavLink} to={to}>
                  {t(`public.${key}`)}
                </Nav.Link>
              </Nav.Item>
            ))}
            <Nav.Item as="li">
              <Nav.Link href="/media-assets/tutorial.webm" target="_blank" rel="noopener">
                {t('public.tutorial')}
              </Nav.Link>
            </Nav.Item>
          </Nav>
          <LanguageToggle variant="success" />
        </div>
      </nav>
      <main id="main" className="container-fluid py-3 flex-grow-1" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
