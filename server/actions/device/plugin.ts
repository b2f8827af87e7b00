// The `device` plugin: the device lookup's snapshot (and its onRoute hook, which wraps the lookup's routes as `crud`
// registers them: `crud` depends on this) and the device writes' budget; both stop with the server.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerDeviceLookup } from './lookup.ts';
import { registerDeviceWrites, type DeviceWritesOptions } from './budget.ts';

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
    registerDeviceLookup(app, app.engine, options.publicUrl, options.panelHosts);
    const budget = registerDeviceWrites(app.engine, options.writes);
    app.addHook('onClose', async () => budget.close());
  },
  { name: 'device', dependencies: ['engine'], decorators: { fastify: ['engine'] }, fastify: '5.x' },
);
