// The office IP: one stored address (table of the officeIp manifest) that the Combinations screen shows and
// that the server forces into a tester's combinations (value source `officeIp` of `forRole`).
import { conflict } from '../errors.ts';
import type { Engine } from '../core/context.ts';
import type { ActionContext, ValueSource } from './types.ts';

const OFFICE_ROW = 1;

const tableOf = (engine: Pick<Engine, 'models'>) => {
  const model = engine.models.get('officeIp');
  if (!model) throw new Error('officeIp actions need the officeIp entity');
  return model.table;
};

async function readOfficeIp({ engine, db }: Omit<ActionContext, 'input'>): Promise<string | null> {
  const row = await db.selectFrom(tableOf(engine)).select('ip').where('id', '=', OFFICE_ROW).executeTakeFirst();
  return (row?.ip as string | undefined) ?? null;
}

export async function getOfficeIp(ctx: ActionContext) {
  return { ip: await readOfficeIp(ctx) };
}

export async function updateOfficeIp({ engine, db, input }: ActionContext) {
  const table = tableOf(engine);
  const values = { ip: input.ip as string, updatedAt: new Date().toISOString() };
  const updated = await db.updateTable(table).set(values).where('id', '=', OFFICE_ROW).executeTakeFirst();
  if (!Number(updated.numUpdatedRows)) await db.insertInto(table).values({ id: OFFICE_ROW, ...values }).execute();
  return { ip: values.ip };
}

export const officeIpSource: ValueSource = async (ctx) => {
  const ip = await readOfficeIp(ctx);
  if (!ip) throw conflict('ipAddress: no office IP is set yet; an admin or developer sets it on the Combinations screen', 'ERR_REFUSED');
  return ip;
};
