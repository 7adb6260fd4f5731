import type { PublicConfig } from '@ct/contracts';
import { createContext, useContext } from 'react';

export const ConfigContext = createContext<PublicConfig | null>(null);

/** The gateway's public configuration (product name, Firebase settings, contact links). */
export function useConfig(): PublicConfig {
  const c = useContext(ConfigContext);
  if (!c) throw new Error('ConfigContext missing');
  return c;
}
