import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExportBar } from './ExportBar.tsx';

const labels = {
  group: 'Export',
  csv: 'CSV',
  pdf: 'PDF',
  saveJson: 'Save',
  loadJson: 'Open',
  loadError: 'Not a design of this tool',
};

describe('ExportBar', () => {
  it('runs each export and disables the result exports when there is nothing to export', () => {
    const onCsv = vi.fn();
    const onSaveJson = vi.fn();
    const { rerender } = render(
      <ExportBar
        labels={labels}
        onCsv={onCsv}
        onPdf={async () => {}}
        onSaveJson={onSaveJson}
        onLoadJson={() => true}
      />,
    );
    expect(screen.getByRole('group', { name: 'Export' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'CSV' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onCsv).toHaveBeenCalledOnce();
    expect(onSaveJson).toHaveBeenCalledOnce();
    rerender(
      <ExportBar
        labels={labels}
        disabled
        onCsv={onCsv}
        onPdf={async () => {}}
        onSaveJson={onSaveJson}
        onLoadJson={() => true}
      />,
    );
    expect(screen.getByRole('button', { name: 'CSV' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'PDF' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Open' })).toBeEnabled();
  });

  it('reads a chosen file and shows an inline alert when it is not a design', async () => {
    const onLoadJson = vi.fn((text: string) => text.startsWith('{'));
    const { container } = render(
      <ExportBar
        labels={labels}
        onCsv={() => {}}
        onPdf={async () => {}}
        onSaveJson={() => {}}
        onLoadJson={onLoadJson}
      />,
    );
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['oops'], 'x.json', { type: 'application/json' })] },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Not a design of this tool');
    fireEvent.change(input, {
      target: { files: [new File(['{}'], 'y.json', { type: 'application/json' })] },
    });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(onLoadJson).toHaveBeenLastCalledWith('{}');
  });
});
