/** /config.json of the serving host. */
export interface PanelConfig {
  backendUrl: string;
  availableHosts?: string[];
}

/** Loads /config.json; any failure (network, status, shape) rejects. */
export async function fetchConfig(fetchImpl: typeof fetch = fetch): Promise<PanelConfig> {
  const response = await fetchImpl('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config: HTTP ${response.status}`);
  const json = (await response.json()) as Partial<PanelConfig>;
  if (typeof json.backendUrl !== 'string') throw new Error('config: backendUrl missing');
  return { backendUrl: json.backendUrl, availableHosts: json.availableHosts };
}

/** A host may use the panel when it is listed; a config without a list admits every host. */
export function hostAllowed(config: PanelConfig, hostname: string): boolean {
  return !Array.isArray(config.availableHosts) || config.availableHosts.includes(hostname);
}
