import type { ChangeEvent, ComponentProps, RefObject } from 'react';
import Form from 'react-bootstrap/Form';

/**
 * A labelled file input that hands each pick to `onPick`. The browser's own file button says
 * "Choose Files / No file chosen" in the browser's language, whatever the page's: the input stays
 * (focusable, named by its label, announced as a file picker) but is drawn as a button with
 * `button`'s words in the page's language, the transparent input over it.
 */
export function FileField({
  id,
  label,
  button,
  inputRef,
  onPick,
  ...input
}: {
  id: string;
  label: string;
  /** The visible button's words. */
  button: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onPick: (e: ChangeEvent<HTMLInputElement>) => void;
} & Omit<ComponentProps<'input'>, 'id' | 'ref' | 'type' | 'onChange' | 'size' | 'value'>) {
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id} className="d-block">
        {label}
      </Form.Label>
      <div className="file-picker">
        <input
          id={id}
          ref={inputRef}
          type="file"
          className="file-picker-input"
          onChange={(e) => onPick(e)}
          {...input}
        />
        {/* the input's face; the transparent input lies over it and takes the clicks and taps */}
        <span className="btn btn-outline-success" aria-hidden="true">
          {button}
        </span>
      </div>
    </Form.Group>
  );
}
