// The server is a set of Fastify plugins (made with fastify-plugin), each with its name and the names it depends on.
// This file derives the order they register in from those declarations: a plugin registers after every plugin it
// depends on; among plugins free to go, the one listed first goes first (so the order is the same on every start).
// A dependency no listed plugin provides, a name given twice or a circle of dependencies stops the start with the
// plugins named. Fastify checks the same declarations again as each plugin registers (and its `decorators`).
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback } from 'fastify';

/** Where fastify-plugin keeps a plugin's name, dependencies and decorators. */
const META = Symbol.for('plugin-meta');

interface PluginMeta {
  name?: string;
  dependencies?: string[];
}

// Each plugin is registered with its own options type; the tree only reads their names and dependencies.
type AnyPlugin = FastifyPluginAsync<any> | FastifyPluginCallback<any>;

/** One plugin of the tree and the options it registers with. */
export interface Planted {
  plugin: AnyPlugin;
  options?: object;
}

/** A plugin with the options it registers with (typed against the plugin's own options). */
export function plant<O extends object>(plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>, options: O): Planted {
  return { plugin, options };
}

/**
 * The plugins every route of the API registers after: its body parsers, CORS, compression and the browser headers
 * (their hooks and onRoute hooks must see the route), the error handlers (a route keeps the handler set when it is
 * registered) and the contract (@fastify/swagger documents the routes registered after it).
 */
export const BEFORE_ROUTES = ['bodies', 'cors', 'compress', 'browser-security', 'errors', 'contract'];

const metaOf = (plugin: AnyPlugin): PluginMeta => ((plugin as unknown as Record<symbol, PluginMeta | undefined>)[META] ?? {});

/**
 * The plugins in the order they register: each after its dependencies, ties in the order given.
 * @example pluginOrder([plant(crud, {}), plant(db, {...})]) // db first: crud depends on it
 */
export function pluginOrder(plugins: Planted[]): Planted[] {
  const byName = new Map<string, Planted>();
  for (const planted of plugins) {
    const { name } = metaOf(planted.plugin);
    if (!name) throw new Error('Every plugin of the server needs a name (fastify-plugin\'s `name`)');
    if (byName.has(name)) throw new Error(`Two plugins of the server are named "${name}"`);
    byName.set(name, planted);
  }
  const needs = new Map<string, string[]>();
  for (const [name, planted] of byName) {
    const dependencies = metaOf(planted.plugin).dependencies ?? [];
    const missing = dependencies.filter((d) => !byName.has(d));
    if (missing.length) throw new Error(`The plugin "${name}" depends on ${missing.map((m) => `"${m}"`).join(', ')}, which no plugin of the server provides`);
    needs.set(name, dependencies);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < byName.size) {
    const next = [...byName.keys()].find((name) => !placed.has(name) && needs.get(name)!.every((d) => placed.has(d)));
    if (!next) throw new Error(`The server's plugins depend on each other in a circle: ${circleOf(needs, placed).join(' -> ')}`);
    order.push(next);
    placed.add(next);
  }
  return order.map((name) => byName.get(name)!);
}

/** One circle among the plugins not placed (each of them waits on another that is not placed). */
function circleOf(needs: Map<string, string[]>, placed: Set<string>): string[] {
  const waiting = [...needs.keys()].filter((name) => !placed.has(name));
  const path: string[] = [];
  let at = waiting[0];
  while (!path.includes(at)) {
    path.push(at);
    at = needs.get(at)!.find((d) => !placed.has(d))!;
  }
  return [...path.slice(path.indexOf(at)), at];
}

/** Registers the plugins in their derived order, each awaited (a plugin that fails stops the start there). */
export async function registerPlugins(app: FastifyInstance, plugins: Planted[]): Promise<void> {
  for (const { plugin, options } of pluginOrder(plugins)) await app.register(plugin, options ?? {});
}
