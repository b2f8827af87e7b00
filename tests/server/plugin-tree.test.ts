// The server's plugins register in the order their declared dependencies give, whatever order they are listed in;
// a dependency nobody provides, or a circle, stops the start with the plugins named.
import { describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { plant, pluginOrder, registerPlugins } from '../../server/core/plugin-tree.ts';

const named = (name: string, dependencies: string[] = [], register: (app: FastifyInstance) => void = () => undefined) =>
  fp(async (app: FastifyInstance) => register(app), { name, dependencies, fastify: '5.x' });

const namesOf = (plugins: ReturnType<typeof pluginOrder>) => plugins.map((p) => (p.plugin as unknown as Record<symbol, { name: string }>)[Symbol.for('plugin-meta')].name);

describe('the plugin tree', () => {
  it('registers each plugin after what it depends on, and keeps the listed order among the others', () => {
    const order = pluginOrder([plant(named('crud', ['auth', 'db']), {}), plant(named('docs'), {}), plant(named('auth', ['db']), {}), plant(named('db'), {})]);
    expect(namesOf(order)).toEqual(['docs', 'db', 'auth', 'crud']);
  });

  it('gives a plugin what the plugin it depends on decorated, though listed after it', async () => {
    const app = Fastify();
    const seen: string[] = [];
    await registerPlugins(app, [
      plant(named('reader', ['greeting'], (instance) => seen.push((instance as unknown as { greeting: string }).greeting)), {}),
      plant(named('greeting', [], (instance) => instance.decorate('greeting', 'hello')), {}),
    ]);
    await app.ready();
    expect(seen).toEqual(['hello']);
    await app.close();
  });

  it('refuses a dependency no plugin provides, naming both', () => {
    expect(() => pluginOrder([plant(named('crud', ['auth']), {})])).toThrow('The plugin "crud" depends on "auth", which no plugin of the server provides');
  });

  it('refuses plugins that depend on each other in a circle, naming the circle', () => {
    expect(() => pluginOrder([plant(named('db'), {}), plant(named('a', ['db', 'b']), {}), plant(named('b', ['c']), {}), plant(named('c', ['a']), {})])).toThrow(
      "The server's plugins depend on each other in a circle: a -> b -> c -> a",
    );
  });

  it('refuses a plugin without a name and two plugins of one name', () => {
    expect(() => pluginOrder([plant(async () => undefined, {})])).toThrow(/needs a name/);
    expect(() => pluginOrder([plant(named('db'), {}), plant(named('db'), {})])).toThrow('Two plugins of the server are named "db"');
  });
});
