import type { ReactNode } from 'react';

/** Routes this feature renders (path of the specification -> page element). */
export const contactPages: Partial<Record<string, ReactNode>> = {};
