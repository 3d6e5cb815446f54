import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from 'react-bootstrap/Alert';
import { Link, useLocation } from 'react-router';
import { ROUTES, UPLOAD_TAKE_PHOTO } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { usePrefersReducedMotion } from '@/components/usePrefersReducedMotion.ts';
import { useSession } from '@/lib/session.tsx';
import { SpringIcons } from './components/SpringIcons.tsx';
import {
  ConverterIcon,
  LateralIcon,
  LeafAiIcon,
  PrincipalIcon,
  SecondaryIcon,
} from './components/ToolIcons.tsx';

/**
 * The landing page; logged-in users see the welcome variant (manual and tutorial video). The
 * first action offered is 'Diagnosticar una hoja': /upload ready to take a photo (a visitor logs
 * in first and comes back there). The banner's looping video has a pause button (WCAG 2.2.2) and
 * does not start by itself for a user who asked the system for less motion.
 */
export function LandingPage() {
  const { t } = useTranslation();
  const { isAuthenticated, user } = useSession();
  // a page that sent the visitor here with something to say (an account just deleted)
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  useDocumentTitle('');
  const reducedMotion = usePrefersReducedMotion();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [videoPlaying, setVideoPlaying] = useState(false);
  useEffect(() => {
    if (reducedMotion) videoRef.current?.pause();
  }, [reducedMotion]);
  const toggleVideo = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) void video.play().catch(() => undefined);
    else video.pause();
  };
  const icons = useMemo(
    () => [
      { to: ROUTES.converter, label: t('landing.icon.converter'), icon: <ConverterIcon /> },
      { to: ROUTES.lateralDesigner, label: t('landing.icon.lateral'), icon: <LateralIcon /> },
      { to: ROUTES.secondaryDesigner, label: t('landing.icon.secondary'), icon: <SecondaryIcon /> },
      { to: ROUTES.principalDesigner, label: t('landing.icon.principal'), icon: <PrincipalIcon /> },
      { to: ROUTES.tool, label: t('landing.icon.diagrodl'), icon: <LeafAiIcon /> },
    ],
    [t],
  );

  return (
    <div className="landing" data-testid="landing">
      {notice && (
        <Alert variant="success" role="status" data-testid="landing-notice">
          {notice}
        </Alert>
      )}
      <section className="welcome-banner">
        <video
          ref={videoRef}
          className="welcome-video"
          autoPlay={!reducedMotion}
          onPlay={() => setVideoPlaying(true)}
          onPause={() => setVideoPlaying(false)}
          loop
          muted
          playsInline
          poster="/media-assets/welcome-poster.jpg"
          aria-label={t('landing.videoLabel')}
          width={1280}
          height={320}
        >
          <source src="/media-assets/welcome.webm" type="video/webm" />
        </video>
        <div className="welcome-text">
          <h1 className="display-5 fw-bold">{t('landing.welcome')}</h1>
          <p className="lead mb-0">{t('landing.intro')}</p>
        </div>
        <button
          type="button"
          className="btn btn-sm btn-light welcome-video-toggle"
          data-testid="welcome-video-toggle"
          onClick={toggleVideo}
        >
          {videoPlaying ? t('landing.pauseVideo') : t('landing.playVideo')}
        </button>
      </section>

      <section className="text-center mt-3" data-testid="diagnose-leaf">
        <Link className="btn btn-success btn-lg px-4" to={UPLOAD_TAKE_PHOTO}>
          {t('landing.diagnoseLeaf')}
        </Link>
        <p className="small text-body-secondary mt-1 mb-0">{t('landing.diagnoseLeafHelp')}</p>
      </section>

      <SpringIcons icons={icons} label={t('landing.iconsLabel')} />

      {isAuthenticated ? (
        <section className="welcome-variant row g-4 mt-2" data-testid="welcome-variant">
          <div className="col-12 col-xl-5">
            <h2 className="h4">{t('landing.welcomeUser', { name: user?.firstName ?? '' })}</h2>
            <a
              className="btn btn-success btn-lg mt-2"
              href="/user_manual.pdf"
              download="DiAgroDL_manual_de_usuario.pdf"
            >
              {t('landing.manual')}
            </a>
            <p className="mt-3">
              <Link to={ROUTES.tomatoCrops}>{t('landing.learn')}</Link>
            </p>
          </div>
          <div className="col-12 col-xl-7">
            <h2 className="h4">{t('landing.tutorialTitle')}</h2>
            <video
              className="tutorial-video w-100 rounded border"
              controls
              preload="metadata"
              width={1280}
              height={720}
              poster="/media-assets/tutorial-poster.jpg"
              aria-describedby="tutorial-caption"
            >
              <source src="/media-assets/tutorial.webm" type="video/webm" />
            </video>
            <p id="tutorial-caption" className="small text-body-secondary">
              {t('landing.tutorialCaption')}
            </p>
          </div>
        </section>
      ) : (
        <section className="text-center my-4">
          <p className="lead">{t('landing.visitorCta')}</p>
          <div className="d-flex flex-wrap justify-content-center gap-2">
            <Link className="btn btn-success" to={ROUTES.login}>
              {t('public.login')}
            </Link>
            <Link className="btn btn-outline-success" to={ROUTES.createAccount}>
              {t('public.createAccount')}
            </Link>
            <Link className="btn btn-link" to={ROUTES.tomatoCrops}>
              {t('landing.learn')}
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
