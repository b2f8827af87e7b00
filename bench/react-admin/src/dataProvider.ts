// react-admin's data provider over the panel's API, for the resources of schemas/ this app shows. Lists take
// page, pageSize, sortBy, sortOrder and the list filters, and answer {rows, count}; an update sends the
// record's key, its writable fields and the updatedAt it was read with (the lost-update check).
import type { DataProvider } from 'react-admin';
import { actions as appinfoActions } from '../../../schemas/appinfo.json';
import { actions as platformActions, record as platformRecord } from '../../../schemas/platform.json';
import { call, type Call } from './api';

/** A row as the API answers it: its shape is the manifest's record schema, known at run time only. */
type Row = any;

interface Resource {
  list: Call;
  update?: Call;
  /** Record fields a caller may send (not readOnly in the manifest's record schema). */
  writable: string[];
}

const writable = (record: { properties: Record<string, object> }) =>
  Object.entries(record.properties)
    .filter(([, schema]) => !('readOnly' in schema && schema.readOnly))
    .map(([name]) => name);

const RESOURCES: Record<string, Resource> = {
  appinfo: { list: appinfoActions.list, writable: [] },
  platforms: { list: platformActions.list, update: platformActions.update, writable: writable(platformRecord) },
};

function resourceOf(name: string): Resource {
  const resource = RESOURCES[name];
  if (!resource) throw new Error(`No resource ${name} in this app`);
  return resource;
}

/**
 * The API has no call that reads one record (the panel fills its edit form from the list row): a record is
 * the one a list answered last, else it is looked for in the list, sorted by id, a thousand rows a page.
 */
const seen = new Map<string, Row>();
const key = (resource: string, id: unknown) => `${resource}/${String(id)}`;

async function findRecord(resource: string, id: unknown): Promise<Row> {
  const known = seen.get(key(resource, id));
  if (known) return known;
  for (let page = 1; ; page++) {
    const { rows } = await call<{ rows: Row[] }>(resourceOf(resource).list, { page, pageSize: 1000, sortBy: 'id', sortOrder: 'asc' });
    const found = rows.find((row) => String(row.id) === String(id));
    if (found) return found;
    if (rows.length < 1000) throw new Error(`No ${resource} with id ${String(id)}`);
  }
}

const notOffered = (what: string) => async () => {
  throw new Error(`${what} is not offered by the benchmark's react-admin app`);
};

export const dataProvider: DataProvider = {
  async getList(resource, { pagination, sort, filter }) {
    const { rows, count } = await call<{ rows: Row[]; count: number }>(resourceOf(resource).list, {
      ...filter,
      page: pagination?.page,
      pageSize: pagination?.perPage,
      sortBy: sort?.field,
      sortOrder: sort?.order === 'DESC' ? 'desc' : 'asc',
    });
    for (const row of rows) seen.set(key(resource, row.id), row);
    return { data: rows, total: count };
  },
  async getOne(resource, { id }) {
    return { data: await findRecord(resource, id) };
  },
  async getMany(resource, { ids }) {
    return { data: await Promise.all(ids.map((id) => findRecord(resource, id))) };
  },
  async update(resource, { id, data, previousData }) {
    const { update, writable } = resourceOf(resource);
    if (!update) throw new Error(`${resource} cannot be edited`);
    const fields: Record<string, unknown> = { id, updatedAt: previousData?.updatedAt };
    for (const name of writable) if (name in data) fields[name] = data[name];
    const stored = await call<Row>(update, fields);
    seen.set(key(resource, stored.id), stored);
    return { data: stored };
  },
  getManyReference: notOffered('getManyReference'),
  updateMany: notOffered('updateMany'),
  create: notOffered('create'),
  delete: notOffered('delete'),
  deleteMany: notOffered('deleteMany'),
};
