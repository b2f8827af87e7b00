import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useLocation } from 'react-router';
import { t } from '../core/i18n/i18n';

/** A route no manifest declares (yet). */
export default function NotFound() {
  const { pathname } = useLocation();
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('Page not found')}
      </Typography>
      <Typography color="text.secondary">{t('No screen is declared for {path}.', { path: pathname })}</Typography>
    </Paper>
  );
}
