// The `device` plugin: the device handlers (the lookup and the two reports), registered into the crud plugin's
// registry; the device lookup's snapshot (and its onRoute hook, which wraps the lookup's routes as `crud` registers
// them: `crud` depends on this) and the device writes' budget; both stop with the server.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { lookupCombination, registerDeviceLookup } from './lookup.ts';
import { registerDeviceWrites, type DeviceWritesOptions } from './budget.ts';
import { reportAchievedGoal, reportAppInfo } from './reports.ts';
import type { ServerActions } from '../types.ts';

/** What the device folder registers, by name: the handlers of the public calls (docs/reference.md). */
export const deviceActions: ServerActions = {
  handlers: {
    'combination.lookup': { public: true, run: lookupCombination },
    'appinfo.report': { public: true, bodyLimit: 16 * 1024, run: reportAppInfo },
    'achievedGoal.report': { public: true, bodyLimit: 16 * 1024, run: reportAchievedGoal },
  },
  checks: {},
  beforeDestroy: {},
  valueSources: {},
};

export interface DevicePluginOptions {
  /** PUBLIC_URL: the host of the answer's URLs. */
  publicUrl?: string;
  /** The panel's hosts (availableHosts): without PUBLIC_URL, only these may become the host of the answer's URLs. */
  panelHosts: string[];
  /** The device writes' budget over the dialect's defaults (server/actions/device/budget.ts). */
  writes?: Partial<DeviceWritesOptions>;
}

export const devicePlugin = fp(
  async (app: FastifyInstance, options: DevicePluginOptions) => {
    app.serverActions.add(deviceActions);
    // The snapshot is kept under the services the registry hands the lookup handler (lookup.ts finds it there).
    const services = app.serverActions.services;
    registerDeviceLookup(app, services, options.publicUrl, options.panelHosts);
    const budget = registerDeviceWrites(services, options.writes);
    app.addHook('onClose', async () => budget.close());
  },
  { name: 'device', dependencies: ['handlers'], decorators: { fastify: ['serverActions'] }, fastify: '5.x' },
);
