import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { className as classDisplayName, ROUTES } from '@diagrodl/contracts';
import { DISEASES } from '../catalog.ts';

/**
 * The heading 'DiAgroDL actualmente ha sido entrenado…' and the top disease selector:
 * the nine pages in the specification's order and 'Tomato healthy' as a disabled entry.
 */
export function DiseasePicker() {
  const { t, i18n } = useTranslation();
  return (
    <nav className="disease-picker" aria-labelledby="disease-picker-heading">
      <h2 id="disease-picker-heading" className="disease-picker-heading">
        {t('diseases.trainedHeading')}
      </h2>
      <ul className="disease-picker-list list-unstyled" data-testid="disease-selector">
        {DISEASES.map((d) => (
          <li key={d.slug}>
            <NavLink to={d.route} className="disease-chip">
              {classDisplayName(d.classId, i18n.language)}
            </NavLink>
          </li>
        ))}
        <li>
          <span
            className="disease-chip disabled"
            role="link"
            aria-disabled="true"
            data-testid="healthy-disabled"
          >
            {t('diseases.healthy')}
            {/* the specification's English name, marked as English on the Spanish page */}
            {!i18n.language.startsWith('en') && (
              <>
                {' ('}
                <span lang="en">Tomato healthy</span>)
              </>
            )}
          </span>
        </li>
      </ul>
    </nav>
  );
}

/** The side disease navigation (and the crop and tool pages). */
export function DiseaseSideNav() {
  const { t, i18n } = useTranslation();
  return (
    <nav
      className="disease-sidenav"
      aria-label={t('diseases.sideNav.label')}
      data-testid="disease-sidenav"
    >
      <p className="disease-sidenav-title">{t('diseases.sideNav.title')}</p>
      <ul className="list-unstyled mb-3">
        {DISEASES.map((d) => (
          <li key={d.slug}>
            <NavLink to={d.route} className="disease-sidenav-link">
              {classDisplayName(d.classId, i18n.language)}
            </NavLink>
          </li>
        ))}
      </ul>
      <p className="disease-sidenav-title">{t('diseases.sideNav.more')}</p>
      <ul className="list-unstyled">
        <li>
          <NavLink to={ROUTES.tomatoCrops} className="disease-sidenav-link">
            {t('diseases.sideNav.crop')}
          </NavLink>
        </li>
        <li>
          <NavLink to={ROUTES.aboutTool} className="disease-sidenav-link">
            {t('diseases.sideNav.about')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
