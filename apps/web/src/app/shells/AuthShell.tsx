import { type ReactNode, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { Header, SkipLink } from '@/components/Header.tsx';
import { LanguageToggle } from '@/components/LanguageToggle.tsx';
import { useSession } from '@/lib/session.tsx';
import {
  DeviceSync,
  forgetDevicePhotos,
  unsentBeforeLogout,
} from '@/features/diagnosis/device/DeviceSync.tsx';
import { ownerKey } from '@/features/diagnosis/device/store.ts';
import { Footer } from './Footer.tsx';

function SideLink({ to, children }: { to: string; children: string }) {
  return (
    <li>
      <NavLink to={to} end className="sidebar-link">
        {children}
      </NavLink>
    </li>
  );
}

/** A disclosure group of the sidebar ('Engineering Tools', 'AI Tools'). */
function SideGroup({
  label,
  children,
  testId,
}: {
  label: string;
  children: React.ReactNode;
  testId: string;
}) {
  const [open, setOpen] = useState(true);
  const id = useId();
  return (
    <li>
      <button
        type="button"
        className="sidebar-group-toggle"
        aria-expanded={open}
        aria-controls={id}
        data-testid={testId}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <span aria-hidden="true" className="ms-auto">
          {open ? '▾' : '▸'}
        </span>
      </button>
      <ul id={id} className="list-unstyled ps-3" hidden={!open}>
        {children}
      </ul>
    </li>
  );
}

/**
 * For logged-in users: header image, sidebar in 2 of 12 columns, content in 10. The disease pages
 * use it too (`shell="disease"`), with their top navigation bar under the header, so a signed-in
 * grower who opens a disease page keeps the sidebar, the greeting and the language switch.
 */
export function AuthShell({
  shell = 'auth',
  topNav,
}: {
  shell?: 'auth' | 'disease';
  topNav?: ReactNode;
}) {
  const { t } = useTranslation();
  const { user, logout } = useSession();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [unsentCount, setUnsentCount] = useState(0);
  const owner = user ? ownerKey(user.userName) : '';

  // Leave the page first: on a protected page, ending the session would otherwise send
  // the user to the login page instead of home. This user's photos and diagnoses leave the
  // device (it may be shared); diagnoses not yet sent are only discarded after asking.
  const endSession = async () => {
    setUnsentCount(0);
    if (owner) await forgetDevicePhotos(owner).catch(() => undefined);
    await navigate('/');
    await logout();
  };
  const onLogout = async () => {
    const n = owner ? await unsentBeforeLogout(owner).catch(() => 0) : 0;
    if (n > 0) setUnsentCount(n);
    else await endSession();
  };

  return (
    <div className={`shell shell-auth shell-${shell}`} data-shell={shell}>
      <DeviceSync />
      <SkipLink />
      <Header>
        <div className="ms-auto d-flex align-items-center gap-2">
          {user && (
            <span className="text-white d-none d-sm-inline">
              {t('sidebar.hello', { name: user.firstName })}
            </span>
          )}
          <LanguageToggle />
        </div>
      </Header>
      {topNav}
      <Row className="g-0 flex-grow-1">
        <Col xs={12} lg={2} as="aside" className="sidebar border-end">
          <Button
            variant="success"
            className="d-lg-none m-2"
            aria-expanded={menuOpen}
            aria-controls="sidebar-menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            ☰ {t('sidebar.openMenu')}
          </Button>
          <nav
            id="sidebar-menu"
            aria-label={t('sidebar.label')}
            className={`p-3 ${menuOpen ? '' : 'd-none d-lg-block'}`}
            // on a phone the menu closes once a link in it was followed
            onClick={(e) => {
              if ((e.target as HTMLElement).closest('a')) setMenuOpen(false);
            }}
          >
            <h2 className="sidebar-heading">{t('sidebar.general')}</h2>
            <ul className="list-unstyled">
              <SideLink to={ROUTES.home}>{t('sidebar.home')}</SideLink>
              <SideLink to={ROUTES.about}>{t('sidebar.about')}</SideLink>
              <SideLink to={ROUTES.contact}>{t('sidebar.contact')}</SideLink>
              <li>
                <button
                  type="button"
                  className="sidebar-link sidebar-button"
                  onClick={() => void onLogout()}
                >
                  {t('sidebar.logout')}
                </button>
              </li>
            </ul>
            <h2 className="sidebar-heading">{t('sidebar.tools')}</h2>
            <ul className="list-unstyled">
              <SideGroup label={t('sidebar.engineeringTools')} testId="engineering-tools">
                <SideLink to={ROUTES.converter}>{t('sidebar.converter')}</SideLink>
                <SideLink to={ROUTES.principalDesigner}>{t('sidebar.principal')}</SideLink>
                <SideLink to={ROUTES.secondaryDesigner}>{t('sidebar.secondary')}</SideLink>
                <SideLink to={ROUTES.lateralDesigner}>{t('sidebar.lateral')}</SideLink>
                <SideLink to={ROUTES.irrigationScheduling}>{t('sidebar.scheduling')}</SideLink>
                <SideLink to={ROUTES.seasonCalendar}>{t('sidebar.seasonCalendar')}</SideLink>
                <li>
                  <span className="sidebar-link disabled" aria-disabled="true">
                    {t('sidebar.inFuture')}
                  </span>
                </li>
              </SideGroup>
              <SideGroup label={t('sidebar.aiTools')} testId="ai-tools">
                <SideLink to={ROUTES.tool}>{t('sidebar.diagrodl')}</SideLink>
                <SideLink to={ROUTES.history}>{t('sidebar.history')}</SideLink>
                <SideLink to={ROUTES.tomatoCrops}>{t('sidebar.tomatoDiseases')}</SideLink>
                <SideLink to={ROUTES.aboutTool}>{t('sidebar.aboutTool')}</SideLink>
              </SideGroup>
            </ul>
            <h2 className="sidebar-heading">{t('sidebar.account')}</h2>
            <ul className="list-unstyled">
              <SideLink to={ROUTES.changePassword}>{t('sidebar.changePassword')}</SideLink>
              <SideLink to={ROUTES.myData}>{t('sidebar.myData')}</SideLink>
            </ul>
          </nav>
        </Col>
        <Col xs={12} lg={10} as="main" id="main" className="p-3 p-lg-4" tabIndex={-1}>
          <Outlet />
        </Col>
      </Row>
      <Footer />
      <Modal show={unsentCount > 0} onHide={() => setUnsentCount(0)} centered>
        <Modal.Header closeButton closeLabel={t('dialog.close')}>
          <Modal.Title as="h2" className="h5">
            {t('logoutUnsent.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p data-testid="logout-unsent">{t('logoutUnsent.body', { count: unsentCount })}</p>
          <p className="small text-body-secondary mb-0">{t('logoutUnsent.offline')}</p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="primary" onClick={() => setUnsentCount(0)}>
            {t('logoutUnsent.cancel')}
          </Button>
          <Button variant="outline-danger" onClick={() => void endSession()}>
            {t('logoutUnsent.discard')}
          </Button>
        </Modal.Footer>
      </Modal>
    </div>
  );
}
