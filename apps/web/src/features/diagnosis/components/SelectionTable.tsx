import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { humanFileSize, isPreviewable, lastModifiedText } from '../format.ts';
import { PhotoTable, RemoveButton, Thumb } from './PhotoTable.tsx';

/** A picked file as the original's preview list showed it. */
export interface PreviewItem {
  id: string;
  file: File;
  filename: string;
  filetype: string;
  fileimage: string | null;
  datetime: string;
  filesize: string;
  /** Cut to the leaf in the crop dialog (the file is the cropped copy). */
  cropped?: boolean;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** A picked file's row: its name, type, date, size and (for an image) its preview. */
export async function previewOf(file: File): Promise<PreviewItem> {
  return {
    id: crypto.randomUUID(),
    file,
    filename: file.name,
    filetype: file.type || '—',
    fileimage: isPreviewable(file.name) ? await readDataUrl(file) : null,
    datetime: lastModifiedText(file.lastModified),
    filesize: humanFileSize(file.size),
  };
}

/** The row with its photo replaced by the cropped copy (same row, name and date). */
export async function croppedPreview(item: PreviewItem, file: File): Promise<PreviewItem> {
  return {
    ...item,
    file,
    filetype: file.type,
    fileimage: isPreviewable(file.name) ? await readDataUrl(file) : null,
    filesize: humanFileSize(file.size),
    cropped: true,
  };
}

function FileIcon() {
  return (
    <svg width="48" height="48" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="#5c6b60" d="M6 2h9l5 5v15H6zM14 3v5h5" />
    </svg>
  );
}

/** The photos picked and not yet sent, each with 'Recortar' and 'Quitar de la selección'. */
export function SelectionTable({
  items,
  onCrop,
  onRemove,
}: {
  items: readonly PreviewItem[];
  onCrop: (item: PreviewItem) => void;
  onRemove: (item: PreviewItem) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0)
    return <p className="text-body-secondary">{t('diagnosis.upload.none')}</p>;
  return (
    <PhotoTable
      testId="selection-list"
      columns={['image', 'name', 'type', 'date', 'size', 'actions']}
      items={items}
      rowIds
      cells={(item) => (
        <>
          <td>
            {item.fileimage ? <Thumb src={item.fileimage} alt={item.filename} /> : <FileIcon />}
          </td>
          <td className="text-break">
            {item.filename}
            {item.cropped && (
              <span className="badge text-bg-secondary ms-2" data-testid="cropped-badge">
                {t('diagnosis.upload.crop.done')}
              </span>
            )}
          </td>
          <td>{item.filetype}</td>
          <td>{item.datetime}</td>
          <td>{item.filesize}</td>
          <td>
            <div className="d-flex flex-wrap gap-1">
              <Button size="sm" variant="outline-secondary" onClick={() => onCrop(item)}>
                {t('diagnosis.upload.crop.button')}
                <span className="visually-hidden">: {item.filename}</span>
              </Button>
              <RemoveButton
                label={t('diagnosis.upload.removeSelected')}
                name={item.filename}
                onClick={() => onRemove(item)}
              />
            </div>
          </td>
        </>
      )}
    />
  );
}
