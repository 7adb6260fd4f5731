import type { PublicConfig } from '@ct/contracts';
import { createContext, useContext } from 'react';

export const ConfigContext = createContext<PublicConfig | null>(null);

/** The gateway's public configuration (product name, Firebase settings, contact links). */
export function useConfig(): PublicConfig {
  const c = useContext(ConfigContext);
  if (!c) throw new Error('ConfigContext missing');
  return c;
}

let current: PublicConfig | null = null;

/** Remembers the configuration the app started with, for code outside React (Firebase starts from it). */
export function setAppConfig(config: PublicConfig): void {
  current = config;
}

export function appConfig(): PublicConfig {
  if (!current) throw new Error('the app has no configuration yet');
  return current;
}
