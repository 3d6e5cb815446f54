import type { ReactNode } from 'react';

/** Routes this feature renders (path of the specification -> page element). */
export const accountPages: Partial<Record<string, ReactNode>> = {};
