import { Trans } from 'react-i18next';
import { IMAGE_SIZE } from '../catalog.ts';
import type { ImageItem } from '../content.ts';

const LICENSE_URL = 'https://creativecommons.org/licenses/by-sa/3.0/';
const SOURCE_URL = 'https://arxiv.org/abs/1511.08060';

export function imageSrc(folder: string, file: string): string {
  return `/Disease/${folder}/${file}`;
}

/** A grid of the example images (lazy-loaded, size set so nothing shifts). */
export function Gallery({ folder, images }: { folder: string; images: readonly ImageItem[] }) {
  return (
    <ul className="disease-gallery list-unstyled" data-testid="gallery">
      {images.map((img, i) => (
        <li key={img.file} className={i === 0 ? 'gallery-first' : 'gallery-extra'}>
          <img
            src={imageSrc(folder, img.file)}
            alt={img.alt}
            width={IMAGE_SIZE}
            height={IMAGE_SIZE}
            loading={i === 0 ? 'eager' : 'lazy'}
            decoding="async"
          />
        </li>
      ))}
    </ul>
  );
}

/** Credit to PlantVillage (CC BY-SA 3.0), shown under every gallery. */
export function ImageCredit() {
  return (
    <p className="image-credit small" data-testid="image-credit">
      <Trans
        i18nKey="diseases.gallery.credit"
        components={{
          src: <a href={SOURCE_URL} rel="noopener" />,
          lic: <a href={LICENSE_URL} rel="license noopener" />,
        }}
      />
    </p>
  );
}
