// A small react-admin app of the panel's resources, for the client benchmark (bench/client.ts): the App Info
// list (where a customer-care login lands, as in the panel) and the Platforms list with its edit form and a
// details row, each with the panel's columns, filters, order and page sizes (schemas/appinfo.json,
// schemas/platform.json).
import { createRoot } from 'react-dom/client';
import {
  Admin,
  Datagrid,
  DateField,
  Edit,
  EditButton,
  List,
  Pagination,
  Resource,
  SimpleForm,
  TextField,
  TextInput,
  useRecordContext,
} from 'react-admin';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';

const PAGE_SIZES = [20, 50, 100, 500];
const Pager = () => <Pagination rowsPerPageOptions={PAGE_SIZES} />;

type Field = [source: string, label: string];

/** Every field of the row, label and value, as the panel's details row shows them. */
function Details({ fields }: { fields: Field[] }) {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <dl data-testid="row-details" style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 16px', margin: 0 }}>
      {fields.map(([source, label]) => (
        <div key={source} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd data-field={source} style={{ margin: 0 }}>
            {record[source] == null || record[source] === '' ? '—' : String(record[source])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const APPINFO_FIELDS: Field[] = [
  ['id', 'id'],
  ['email', 'Email'],
  ['login', 'Login'],
  ['appInstallId', 'App install id'],
  ['version', 'Version'],
  ['whitelabel', 'Whitelabel'],
  ['platform', 'Platform'],
  ['userId', 'User id'],
  ['active', 'Active'],
];

const AppInfoList = () => (
  <List
    perPage={20}
    sort={{ field: 'id', order: 'DESC' }}
    pagination={<Pager />}
    filters={[
      <TextInput key="email" source="email" label="Email" alwaysOn />,
      <TextInput key="login" source="login" label="Login" alwaysOn />,
      <TextInput key="appInstallId" source="appInstallId" label="App install id" alwaysOn />,
    ]}
  >
    <Datagrid bulkActionButtons={false} rowClick={false} expand={<Details fields={APPINFO_FIELDS} />}>
      {APPINFO_FIELDS.map(([source, label]) => (
        <TextField key={source} source={source} label={label} />
      ))}
    </Datagrid>
  </List>
);

const PLATFORM_FIELDS: Field[] = [
  ['id', 'id'],
  ['name', 'Name'],
  ['maxVersion', 'Max version'],
  ['createdAt', 'Created'],
  ['updatedAt', 'Updated'],
];

const PlatformList = () => (
  <List
    perPage={20}
    sort={{ field: 'id', order: 'ASC' }}
    pagination={<Pager />}
    filters={[<TextInput key="name" source="name" label="Name" alwaysOn />]}
  >
    <Datagrid bulkActionButtons={false} rowClick={false} expand={<Details fields={PLATFORM_FIELDS} />}>
      <TextField source="id" label="id" />
      <TextField source="name" label="Name" />
      <TextField source="maxVersion" label="Max version" />
      <DateField source="createdAt" label="Created" showTime />
      <DateField source="updatedAt" label="Updated" showTime />
      <EditButton />
    </Datagrid>
  </List>
);

const PlatformEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm>
      <TextInput source="name" label="Name" />
      <TextInput source="maxVersion" label="Max version" helperText="XX.YY.ZZ" />
    </SimpleForm>
  </Edit>
);

createRoot(document.getElementById('root')!).render(
  <Admin dataProvider={dataProvider} authProvider={authProvider} requireAuth disableTelemetry>
    <Resource name="appinfo" options={{ label: 'App Info' }} list={AppInfoList} />
    <Resource name="platforms" options={{ label: 'Platforms' }} list={PlatformList} edit={PlatformEdit} />
  </Admin>,
);
