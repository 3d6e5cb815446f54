import Card from 'react-bootstrap/Card';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import authorsFile from '@/config/authors.json';
import { runtimeConfig } from '@/lib/runtime-config.ts';

interface Author {
  name: string;
  role: { es: string; en: string };
  organisation: string;
  link: string;
}

/** The data sets' citations, in English as published (marked so). */
const CITATIONS = [
  'Hughes, D. P. & Salathé, M. (2015). An open access repository of images on plant health to enable the development of mobile disease diagnostics. arXiv:1511.08060.',
  'Mohanty, S. P., Hughes, D. P. & Salathé, M. (2016). Using deep learning for image-based plant disease detection. Frontiers in Plant Science 7:1419. doi:10.3389/fpls.2016.01419.',
  'Singh, D., Jain, N., Jain, P., Kayal, P., Kumawat, S. & Batra, N. (2020). PlantDoc: A dataset for visual plant disease detection. Proceedings of the 7th ACM IKDD CoDS and 25th COMAD, 249-253. doi:10.1145/3371158.3371196.',
  'Deng, J., Dong, W., Socher, R., Li, L.-J., Li, K. & Fei-Fei, L. (2009). ImageNet: A large-scale hierarchical image database. IEEE Conference on Computer Vision and Pattern Recognition (CVPR), 248-255. doi:10.1109/CVPR.2009.5206848.',
];

export default function AboutPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'es';
  useDocumentTitle(t('about.title'));
  const { providerName } = runtimeConfig();
  const authors = (authorsFile.authors as Author[]).map((a) => ({
    ...a,
    organisation: a.organisation.replace('{provider}', providerName),
  }));
  const tools = t('about.toolsList', { returnObjects: true }) as string[];

  return (
    <article className="about-page">
      <h1>{t('about.title')}</h1>
      <section>
        <h2 className="h4">{t('about.what')}</h2>
        <p>{t('about.whatText')}</p>
      </section>
      <section>
        <h2 className="h4">{t('about.who')}</h2>
        <p>{t('about.whoText')}</p>
      </section>
      <section>
        <h2 className="h4">{t('about.tools')}</h2>
        <ul>
          {tools.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>
      <section>
        <h2 className="h4">{t('about.data')}</h2>
        <p>{t('about.dataText')}</p>
        <p>
          <a
            href="https://creativecommons.org/licenses/by-sa/3.0/"
            rel="license noopener"
            target="_blank"
          >
            {t('app.licence')}
          </a>
        </p>
        <h3 className="h6">{t('about.citations')}</h3>
        <ul className="small">
          {CITATIONS.map((c) => (
            <li key={c} lang="en">
              {c}
            </li>
          ))}
        </ul>
      </section>
      <section data-testid="about-your-data">
        <h2 className="h4">{t('about.yourData')}</h2>
        <h3 className="h6">{t('about.keptTitle')}</h3>
        <p>{t('about.kept')}</p>
        <h3 className="h6">{t('about.howLongTitle')}</h3>
        <p>{t('about.howLong')}</p>
        <h3 className="h6">{t('about.controlTitle')}</h3>
        <p>{t('about.control')}</p>
        <p>
          <Link to={ROUTES.myData}>{t('about.controlLink')}</Link>
        </p>
      </section>
      <section>
        <h2 className="h4">{t('about.authors')}</h2>
        <div className="row g-3">
          {authors.map((a) => (
            <div className="col-12 col-md-6 col-xl-3" key={a.name}>
              <Card className="h-100 author-card" data-testid="author-card">
                <Card.Body>
                  <Card.Title as="h3" className="h5">
                    {a.name}
                  </Card.Title>
                  <Card.Subtitle className="mb-2 text-body-secondary">{a.role[lang]}</Card.Subtitle>
                  <Card.Text>{a.organisation}</Card.Text>
                  <Card.Link
                    href={a.link}
                    {...(a.link.startsWith('http') ? { target: '_blank', rel: 'noopener' } : {})}
                  >
                    {t('about.profile')}
                    <span className="visually-hidden">: {a.name}</span>
                  </Card.Link>
                </Card.Body>
              </Card>
            </div>
          ))}
        </div>
      </section>
    </article>
  );
}
