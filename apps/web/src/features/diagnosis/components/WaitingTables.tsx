import { useTranslation } from 'react-i18next';
import type { PendingImage } from '@diagrodl/contracts';
import { useObjectUrls } from '../device/hooks.ts';
import type { DevicePhoto } from '../device/store.ts';
import { humanFileSize } from '../format.ts';
import { PhotoTable, RemoveButton, Thumb } from './PhotoTable.tsx';

/**
 * The photos waiting to be identified: those kept on this device, then those uploaded (each
 * can be downloaded); each with 'Eliminar', which the page confirms first.
 */
export function WaitingTables({
  kept,
  uploaded,
  onRemoveKept,
  onRemoveUploaded,
}: {
  kept: readonly DevicePhoto[];
  uploaded: readonly PendingImage[];
  onRemoveKept: (photo: DevicePhoto) => void;
  onRemoveUploaded: (image: PendingImage) => void;
}) {
  const { t } = useTranslation();
  const keptUrls = useObjectUrls(Object.fromEntries(kept.map((p) => [p.id, p.photo])));
  return (
    <>
      {kept.length > 0 && (
        <PhotoTable
          testId="device-list"
          caption={t('diagnosis.device.keptCaption')}
          columns={['image', 'name', 'size', 'actions']}
          items={kept}
          cells={(item) => (
            <>
              <td>
                <Thumb src={keptUrls[item.id]} alt={item.name} />
              </td>
              <td className="text-break">
                {item.name}{' '}
                <span className="badge text-bg-secondary">
                  {t('diagnosis.device.onThisDevice')}
                </span>
              </td>
              <td>{humanFileSize(item.size)}</td>
              <td>
                <RemoveButton name={item.name} onClick={() => onRemoveKept(item)} />
              </td>
            </>
          )}
        />
      )}
      {uploaded.length === 0 ? (
        kept.length === 0 && (
          <p className="text-body-secondary">{t('diagnosis.upload.noneUploaded')}</p>
        )
      ) : (
        <PhotoTable
          testId="uploaded-list"
          columns={['id', 'image', 'name', 'size', 'actions']}
          items={uploaded}
          cells={(item) => (
            <>
              <td>{item.id}</td>
              <td>
                <Thumb src={item.url} alt={item.name_img} lazy />
              </td>
              <td className="text-break">{item.name_img}</td>
              <td>{humanFileSize(item.size)}</td>
              <td>
                <div className="d-flex flex-wrap gap-1">
                  <a
                    className="btn btn-sm btn-outline-secondary"
                    href={item.url}
                    download={item.name_img}
                  >
                    {t('diagnosis.upload.download')}
                    <span className="visually-hidden">: {item.name_img}</span>
                  </a>
                  <RemoveButton name={item.name_img} onClick={() => onRemoveUploaded(item)} />
                </div>
              </td>
            </>
          )}
        />
      )}
    </>
  );
}
