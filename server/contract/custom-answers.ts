// What `data` holds in the answer of each custom handler (server/actions/index.ts names them), by handler name:
// the device calls' answers exactly as docs/device-api.md describes them, the staff calls' small reports.
// A handler not listed here (an application's own) answers a free-form object.
import type { Json } from './schema-parts.ts';

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const int = { type: 'integer' };
const obj = (properties: Json, required = Object.keys(properties), extra = false): Json => ({ type: 'object', additionalProperties: extra, required, properties });
/** A free-form JSON object (a whitelabel's translations, its WL config): any keys, any values. */
const freeObject = (description: string): Json => ({ type: ['object', 'null'], additionalProperties: true, description });

const BUILD_HEAD = { name: str, version: strOrNull, resolution: strOrNull, urls: { type: 'array', items: str } };
const BUILD_TAIL = { forceLocalBuild: { type: 'boolean' } };

/** GET /v1/combination/get (docs/device-api.md, "The answer"). */
export const LOOKUP_ANSWER: Json = obj({
  matchedBy: { type: 'string', enum: ['device', 'ip', 'experiment', 'published', 'latest'], description: 'the rule of the resolution order that gave the build' },
  // Two shapes, so that a build is written as the lookup always wrote it: an A/B group's build names its customUrl
  // before forceLocalBuild, the other builds have none (fast-json-stringify writes required properties first).
  build: {
    anyOf: [
      { ...obj({ ...BUILD_HEAD, customUrl: { ...strOrNull, description: "an A/B group's build: the group's customUrl" }, ...BUILD_TAIL }), title: 'experiment build' },
      { ...obj({ ...BUILD_HEAD, ...BUILD_TAIL }), title: 'build' },
    ],
  },
  experiment: {
    ...obj({ id: int, group: { type: ['integer', 'null'] }, groupName: strOrNull, isActive: { type: 'boolean' } }),
    type: ['object', 'null'],
    description: 'the collection the device is in, or null',
  },
  whitelabel: { ...obj({ name: str, feUrl: strOrNull, imageHD: strOrNull, imageFHD: strOrNull, cssConfig: strOrNull }), type: ['object', 'null'] },
  platform: { ...obj({ name: str }), type: ['object', 'null'] },
  localisation: freeObject("the whitelabel's translations when active, else null"),
  config: freeObject("the whitelabel's WL config when active, else null"),
  techSupportUrl: strOrNull,
  ip: { ...str, description: 'the address the lookup answered for' },
});

const ANSWERS: Record<string, Json> = {
  'combination.lookup': LOOKUP_ANSWER,
  'appinfo.report': obj({ created: { type: 'boolean', description: 'true when the device had no row yet' } }),
  'achievedGoal.report': obj({ stuckingCount: { ...int, description: 'how many times the goal was reported again' } }),
  'versions.list': obj({ rows: { type: 'array', items: str }, count: int }),
  'build.reload': obj({ found: int, added: int }),
  'build.reloadForWl': obj({ found: int, added: int }),
  'build.update': obj({ checked: int, unavailable: int }),
  'officeIp.get': obj({ ip: strOrNull }),
  'officeIp.update': obj({ ip: str }),
  'testersIP.addArray': obj({ count: int }),
  'experiment.deleteUser': obj({ count: int }),
  'gitlab.runPipeline': { type: 'object', additionalProperties: true, description: 'the pipeline record stored' },
  'gitlab.jobs': obj({ rows: { type: 'array', items: { type: 'object', additionalProperties: true } }, count: int }),
  'gitlab.status': obj({ configured: { type: 'boolean' }, missing: { type: 'array', items: str }, message: strOrNull, webhookPath: str }),
};

export const customAnswer = (handler: string | undefined): Json =>
  (handler && ANSWERS[handler]) || { type: 'object', additionalProperties: true, description: "the handler's answer" };
