import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useTranslation } from 'react-i18next';

/** The columns the upload page's tables may show, under `diagnosis.upload.columns`. */
export type PhotoColumn = 'id' | 'image' | 'name' | 'type' | 'date' | 'size' | 'actions';

/** A photo as a 64 px thumbnail in one of the upload page's tables. */
export function Thumb({
  src,
  alt,
  lazy,
}: {
  src: string | undefined;
  alt: string;
  lazy?: boolean;
}) {
  return (
    <img
      src={src}
      alt={alt}
      width={64}
      height={64}
      className="preview-thumb"
      loading={lazy ? 'lazy' : undefined}
    />
  );
}

/**
 * A row's remove button ("Eliminar" unless `label` says otherwise); the photo's name is read out
 * after the visible label.
 */
export function RemoveButton({
  label,
  name,
  onClick,
}: {
  label?: string;
  name: string;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Button size="sm" variant="outline-danger" onClick={onClick}>
      {label ?? t('diagnosis.upload.remove')}
      <span className="visually-hidden">: {name}</span>
    </Button>
  );
}

/**
 * One of the upload page's photo tables (picked, kept on the device, uploaded): the header from
 * `columns`, one row an item, its cells from `cells`.
 */
export function PhotoTable<T extends { id: string | number }>({
  testId,
  caption,
  columns,
  items,
  cells,
  rowIds = false,
}: {
  testId: string;
  caption?: string;
  columns: readonly PhotoColumn[];
  items: readonly T[];
  cells: (item: T) => ReactNode;
  /** Marks each row with its item's id (`data-id`). */
  rowIds?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Table responsive size="sm" className="align-middle" data-testid={testId}>
      {caption && <caption className="caption-top">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {t(`diagnosis.upload.columns.${c}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id} data-id={rowIds ? item.id : undefined}>
            {cells(item)}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
