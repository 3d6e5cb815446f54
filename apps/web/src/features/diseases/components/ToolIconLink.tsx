import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';

/** The clickable tool icon that starts DiAgroDL (/Custom), with the instruction to click it. */
export function ToolIconLink() {
  const { t } = useTranslation();
  return (
    <div className="tool-cta">
      <Link to={ROUTES.custom} className="tool-icon-link" data-testid="tool-icon">
        <ToolIcon />
        <span className="tool-icon-label">{t('diseases.tool.label')}</span>
      </Link>
      <p className="tool-instruction mb-0">{t('diseases.tool.instruction')}</p>
    </div>
  );
}

/** A tomato leaf under a magnifying glass with a small network: drawn inline, no external host. */
function ToolIcon() {
  return (
    <svg
      width="96"
      height="96"
      viewBox="0 0 96 96"
      aria-hidden="true"
      focusable="false"
      className="tool-icon"
    >
      <circle cx="48" cy="48" r="46" fill="#eaf5e4" stroke="#1f6f3f" strokeWidth="3" />
      <path
        d="M22 70C24 42 40 26 66 22c-2 28-18 44-44 48z"
        fill="#8fd16a"
        stroke="#15502d"
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <path d="M24 68c10-14 22-24 36-34" fill="none" stroke="#15502d" strokeWidth="2.5" />
      <circle cx="40" cy="46" r="3.5" fill="#7a4b1e" />
      <circle cx="50" cy="40" r="2.5" fill="#7a4b1e" />
      <circle cx="34" cy="58" r="2.5" fill="#7a4b1e" />
      <circle
        cx="62"
        cy="62"
        r="11"
        fill="#fff"
        fillOpacity="0.6"
        stroke="#15502d"
        strokeWidth="3.5"
      />
      <path d="M70 70l10 10" stroke="#15502d" strokeWidth="5" strokeLinecap="round" />
      <circle cx="58" cy="60" r="2" fill="#1f6f3f" />
      <circle cx="66" cy="58" r="2" fill="#1f6f3f" />
      <circle cx="62" cy="66" r="2" fill="#1f6f3f" />
      <path d="M58 60l8-2-4 8z" fill="none" stroke="#1f6f3f" strokeWidth="1.2" />
    </svg>
  );
}
