import { type RefObject, useEffect, useRef } from 'react';

/**
 * The AbortController of the runs a page follows, aborted when the page goes (a new one on each
 * mount, so a mount after an unmount follows with a live one): pass `stop.current.signal`.
 */
export function useStopOnLeave(): RefObject<AbortController> {
  const stop = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller;
    return () => controller.abort();
  }, []);
  return stop;
}
