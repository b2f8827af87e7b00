// The bar shown while a lazily loaded screen arrives (App's routes, the Shell's outlet).
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { t } from '../core/i18n/i18n';

export function RouteFallback() {
  return (
    <Box sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 2000 }}>
      <LinearProgress aria-label={t('Loading screen')} />
    </Box>
  );
}
