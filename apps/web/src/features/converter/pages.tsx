import type { ReactNode } from 'react';

/** Routes this feature renders (path of the specification -> page element). */
export const converterPages: Partial<Record<string, ReactNode>> = {};
