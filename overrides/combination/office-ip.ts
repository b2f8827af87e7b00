// The office IP kept in session state (SPEC 3): loaded once per session by whichever combination piece needs
// it first, shared by the office-IP box, the tester's Add button and the new-combination prefill.
import { useEffect } from 'react';
import type { Panel } from '../../src/core/app/panel';
import type { Manifest, Role } from '../../kernel/manifest/types';
import { session } from '../../src/core/session/session';
import { createStore, useStore } from '../../src/core/store';

export interface OfficeIpState {
  ip: string | null;
  loaded: boolean;
}

export const officeIp = createStore<OfficeIpState>({ ip: null, loaded: false });

// Session state: forgotten on logout, so the next user reads it afresh.
session.subscribe(() => {
  if (!session.get().token && officeIp.get().loaded) officeIp.set({ ip: null, loaded: false });
});

/** Reads the office IP from the server; a failure leaves it unknown. */
export async function loadOfficeIp(panel: Panel): Promise<void> {
  const action = panel.manifests.byEntity.get('officeIp')?.actions.get;
  if (!action) return;
  try {
    const data = await panel.provider.call<{ ip: string | null }>(action, {});
    officeIp.set({ ip: data.ip, loaded: true });
  } catch {
    // Unreachable: keep the last IP the server confirmed rather than showing none.
    officeIp.set((state) => ({ ip: state.ip, loaded: true }));
  }
}

export function useOfficeIp(panel: Panel): OfficeIpState {
  const state = useStore(officeIp);
  useEffect(() => {
    if (!officeIp.get().loaded) void loadOfficeIp(panel);
  }, [panel]);
  return state;
}

/**
 * True when the server forces the office IP into `role`'s combinations (a `forRole` value source `officeIp` on
 * an action of the manifest: the tester, in schemas/combination.json), so no role name is written here.
 */
export function officeIpForcedFor(manifest: Manifest | undefined, role: Role): boolean {
  return Object.values(manifest?.actions ?? {}).some((a) => Object.values(a.forRole?.[role] ?? {}).includes('officeIp'));
}

/**
 * The combination manifest as a tester's screen uses it (SPEC 6): no Add while no office IP is known, and a
 * new combination prefilled with it. The server forces the IP either way (`forRole`).
 */
export function combinationsFor(manifest: Manifest, role: Role, ip: string | null): Manifest {
  if (!officeIpForcedFor(manifest, role)) return manifest;
  if (!ip) {
    const { create: _hidden, ...actions } = manifest.actions;
    return { ...manifest, actions };
  }
  const props = manifest.record!.properties;
  return {
    ...manifest,
    record: { ...manifest.record!, properties: { ...props, ipAddress: { ...props.ipAddress, default: ip } } },
  };
}
