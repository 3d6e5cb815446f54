import { useEffect, type RefObject } from 'react';

/** The fields a form marks invalid (inputs and selects; a file field marks its button). */
const INVALID = '[aria-invalid="true"], [data-invalid="true"]';

/**
 * After a submit or a Calculate that found errors (`attempt` counts them), the focus goes to the
 * first invalid field in `scope`, scrolled to the middle of the screen so that its label and
 * message show. The tools and the account forms (FieldError.tsx) share it.
 */
export function useFocusInvalid(scope: RefObject<HTMLElement | null>, attempt: number): void {
  useEffect(() => {
    if (attempt === 0) return;
    const field = scope.current?.querySelector<HTMLElement>(INVALID);
    if (!field) return;
    field.focus({ preventScroll: true });
    field.scrollIntoView?.({ block: 'center' }); // (not in jsdom)
  }, [scope, attempt]);
}
