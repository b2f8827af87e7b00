import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { allowedAction } from '../../src/core/access/access';
import { usePanel } from '../../src/core/app/panel';
import { useListContext } from '../../src/core/list/list-context';
import { useWrite } from '../../src/core/app/write-status';
import { useConfirm } from '../../src/mui/ConfirmDialog';
import type { ActionOverrideProps } from '../../src/registry/override-types';
import { t } from '../../src/core/i18n/i18n';

/**
 * The users screen's row delete: the spec's only call for it is the experiments' delete-user by appInstallId,
 * declared once in schemas/experiment.json. Called from here with the row's appInstallId and the screen's
 * collection id (the route parameter, sent as `id`), so the user leaves this collection only; the toolbar's
 * "Delete User by AppInstallId" sends no id and removes the application from every collection.
 */
export function DeleteCollectionUser({ role, reload, row }: ActionOverrideProps) {
  const panel = usePanel();
  const { callParams } = useListContext();
  const experiment = panel.manifests.byEntity.get('experiment');
  const action = experiment && allowedAction(experiment, 'deleteUser', role);
  const write = useWrite(t('Delete'));
  const { confirm, dialog } = useConfirm();
  // Never fall back to the call without an id: that would remove the application from every collection.
  const collectionId = callParams.id ?? row?.abtestingId;
  if (!action || !row || collectionId === undefined || collectionId === null || collectionId === '') return null;
  async function remove() {
    if (!(await confirm(t('Delete this item?')))) return;
    if (await write.run(() => panel.provider.call(action!, { appInstallId: row!.appInstallId, id: collectionId }))) reload();
  }
  return (
    <>
      <Tooltip title={t('Delete')}>
        <span>
          <IconButton size="small" aria-label={t('Delete')} color="error" disabled={write.status === 'pending'} onClick={() => void remove()}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      {dialog}
    </>
  );
}
