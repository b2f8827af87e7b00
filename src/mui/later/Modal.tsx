// @mui/material/Modal, loaded later: the modal under every dialog, menu, popover and select list draws only once
// opened (a closed one draws nothing), and with it come its focus trap, its backdrop and their fade. The data grid's
// bindings and MUI's Popover, Dialog and Drawer import it. Only the default export: its importers take no other.
import type Modal from '@mui/material/Modal';
import { later } from './later';

const LaterModal = later<typeof Modal>(() => import('@mui/material/Modal'), { drawsNothing: (p) => !p.open && !p.keepMounted });
export default LaterModal;

/** Fetches the modal's code ahead (a menu that will open soon: the login screen's language menu). */
export const preloadModal = (): Promise<unknown> => LaterModal.preload();
